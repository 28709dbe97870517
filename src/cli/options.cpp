#include "cli/options.hpp"

#include "cli/errors.hpp"

#include <urlsift/version.hpp>

#include <boost/make_shared.hpp>

#include <iostream>
#include <set>
#include <utility>

namespace urlsift::cli {

namespace {

/// Whether `d` takes the token after it as its value.
bool takes_next(const po::option_description* d) { return d != nullptr && d->semantic()->min_tokens() > 0; }

/// `a` with its operands moved after a `--`, in their order. Boost's
/// parser removes each operand from the front of its list, which makes
/// `xargs urlsift extract` with 100,000 file names quadratic; after `--`
/// it takes them all at once. A token is an operand unless it is an
/// option or the value of the option before it; what cannot be told (an
/// unknown or ambiguous option) is left in place for Boost to report.
args operands_last(const args& a, const po::options_description& all) {
    args options, operands;
    const auto find = [&all](const std::string& name) -> const po::option_description* {
        try {
            return all.find_nothrow(name, true);  // unix_style allows an unambiguous prefix
        } catch (const po::error&) {
            return nullptr;
        }
    };
    for (std::size_t i = 0; i < a.size(); ++i) {
        // grep's British spelling of --color, which it takes too.
        const std::string t = a[i] == "--colour" || a[i].starts_with("--colour=") ? "--color" + a[i].substr(8) : a[i];
        if (t == "--") {
            operands.insert(operands.end(), a.begin() + static_cast<std::ptrdiff_t>(i) + 1, a.end());
            break;
        }
        if (t.size() < 2 || t[0] != '-') {
            operands.push_back(t);  // `-` alone is standard input
            continue;
        }
        options.push_back(t);
        bool value_next = false;
        if (t[1] == '-') {
            value_next = t.find('=') == std::string::npos && takes_next(find(t.substr(2)));
        } else {
            // A bundle of short options: the first that takes a value takes
            // the rest of the token, or the next token when none is left.
            for (std::size_t k = 1; k < t.size(); ++k) {
                const po::option_description* d = all.find_nothrow(std::string{'-', t[k]}, false);
                if (d == nullptr) break;
                if (takes_next(d)) {
                    value_next = k + 1 == t.size();
                    break;
                }
            }
        }
        if (value_next && i + 1 < a.size()) options.push_back(a[++i]);
    }
    if (operands.empty()) return options;
    options.push_back("--");
    options.insert(options.end(), operands.begin(), operands.end());
    return options;
}

}  // namespace

void option_set::add(const option_spec& spec, const po::value_semantic* semantic) {
    std::string names(spec.name);
    if (spec.short_name != 0) names.append(",").push_back(spec.short_name);
    std::string help(spec.help);
    help.append(spec.help_more);
    description_.add(boost::make_shared<po::option_description>(names.c_str(), semantic, help.c_str()));
    specs_.push_back(&spec);
}

void option_set::add(const option_spec& spec, bool& on) { add(spec, po::bool_switch(&on)); }

void option_set::add(const option_spec& spec, std::string& value) {
    if (!spec.default_value.empty()) value = spec.default_value;
    add(spec, po::value<std::string>(&value));
}

void option_set::add(const option_spec& spec, std::optional<std::string>& value) {
    add(spec, po::value<std::string>()->notifier([&value](const std::string& v) { value = v; }));
}

void option_set::add(const option_spec& spec, long long& value) {
    if (!spec.default_value.empty()) value = std::stoll(std::string(spec.default_value));
    add(spec, po::value<long long>(&value));
}

void option_set::add(const option_spec& spec, std::optional<long long>& value) {
    add(spec, po::value<long long>()->notifier([&value](long long v) { value = v; }));
}

void option_set::add(const option_spec& spec, std::vector<std::string>& values) {
    add(spec, po::value<std::vector<std::string>>(&values)->composing());
}

void parse_command_line(std::string_view command, const args& a, const option_set& set,
                        std::vector<std::string>& operands) {
    constexpr const char* positional_name = "operand";
    po::options_description all;
    all.add(set.description());
    all.add_options()(positional_name, po::value<std::vector<std::string>>(&operands), "operands");
    po::positional_options_description pos;
    pos.add(positional_name, -1);
    po::variables_map vm;
    try {
        po::parsed_options parsed =
            po::command_line_parser(operands_last(a, all))
                .options(all)
                .positional(pos)
                .style(po::command_line_style::unix_style)
                .run();
        // As in grep and ripgrep, a repeated option takes its last value
        // (`--format text --format jsonl` is jsonl), so that a shell
        // alias's choices can be overridden; Boost would refuse the second.
        // Options that collect their values are marked composing.
        std::set<std::string> seen;
        std::vector<po::option> kept;
        for (auto it = parsed.options.rbegin(); it != parsed.options.rend(); ++it) {
            const po::option_description* d = it->position_key < 0 ? all.find_nothrow(it->string_key, false) : nullptr;
            if (d != nullptr && !d->semantic()->is_composing() && !seen.insert(it->string_key).second) continue;
            kept.push_back(*it);
        }
        parsed.options.assign(kept.rbegin(), kept.rend());
        po::store(parsed, vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw usage_error(std::string(command), e.what());
    }
}

void print_help(std::ostream& out, const command_spec& command, const option_set& set) {
    out << command.usage << '\n' << set.description() << '\n' << command.epilog;
}

void print_version() { std::cout << "urlsift " << urlsift::version() << '\n'; }

bool answered_help_or_version(const standard_settings& s, const command_spec& command, const option_set& set) {
    if (s.help) {
        print_help(std::cout, command, set);
        return true;
    }
    if (s.version) {
        print_version();
        return true;
    }
    return false;
}

format parse_format(std::string_view command, const std::string& value, std::string_view allowed) {
    static constexpr std::pair<std::string_view, format> names[] = {
        {"text", format::text}, {"jsonl", format::jsonl}, {"csv", format::csv}, {"tsv", format::tsv}};
    std::string fenced = "|";  // appended to: `"|" + std::string(...)` sets off GCC 12's -Wrestrict
    fenced.append(allowed).append("|");
    for (const auto& [name, f] : names)
        if (value == name && fenced.find(std::string("|").append(value).append("|")) != std::string::npos) return f;
    throw usage_error(std::string(command),
                      "unknown --format '" + value + "' (choose one of: " + std::string(allowed) + ")");
}

bool parse_binary_as_text(std::string_view command, const std::string& value) {
    if (value != "skip" && value != "text")
        throw usage_error(std::string(command), "unknown --binary '" + value + "' (choose skip or text)");
    return value == "text";
}

}  // namespace urlsift::cli
