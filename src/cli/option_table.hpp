#pragma once
// A command's options as a table: each row an option_spec and the field of
// the command's settings struct its value goes to, so that a command reads
// typed settings, never an option by its name:
//
//   constexpr option_row<walk_settings> walk_options[] = {
//       {{.name = "hidden", .help = "..."}, &walk_settings::hidden},
//   };
//   option_set set;
//   set.add(walk_options, s.walk);   // Boost stores into s.walk.hidden
//
// option_set makes the Boost.Program_options description from the rows
// and keeps the specs in order, for --help and the generated manual pages
// and completions.

#include "cli/option_spec.hpp"

#include <boost/program_options.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace urlsift::cli {

namespace po = boost::program_options;

/// The field of `S` an option's value goes to. A switch is a bool; an
/// option whose absence the command tells apart is an optional; a
/// repeatable one a vector.
template <class S>
using option_field = std::variant<bool S::*, std::string S::*, std::optional<std::string> S::*, long long S::*,
                                  std::optional<long long> S::*, std::vector<std::string> S::*>;

/// One row of a table: an option and where its value goes.
template <class S>
struct option_row {
    option_spec spec;
    option_field<S> field;
};

/// The options of one command, in --help order, bound to its settings.
/// The fields bound must outlive the set's parse.
class option_set {
public:
    explicit option_set(const char* caption = "Options") : description_(caption) {}

    /// Adds each row of `rows`, bound to its field of `s`.
    template <class S, std::size_t N>
    void add(const option_row<S> (&rows)[N], S& s) {
        for (const option_row<S>& r : rows) std::visit([&](auto field) { add(r.spec, s.*field); }, r.field);
    }

    /// Adds one option; a field with a default (`spec.default_value`) is set
    /// to it now, and keeps it unless the option is given.
    void add(const option_spec& spec, bool& on);
    void add(const option_spec& spec, std::string& value);
    void add(const option_spec& spec, std::optional<std::string>& value);
    void add(const option_spec& spec, long long& value);
    void add(const option_spec& spec, std::optional<long long>& value);
    void add(const option_spec& spec, std::vector<std::string>& values);

    const po::options_description& description() const noexcept { return description_; }
    const std::vector<const option_spec*>& specs() const noexcept { return specs_; }

private:
    void add(const option_spec& spec, const po::value_semantic* semantic);

    po::options_description description_;
    std::vector<const option_spec*> specs_;
};

}  // namespace urlsift::cli
