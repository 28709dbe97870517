// urlsift resolve: resolve references given as arguments or on standard
// input against a base URL (Section 5.2), one result a line.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"

#include <urlsift/reference.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/text_source.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>

namespace urlsift::cli {

namespace {

constexpr std::string_view usage = R"(Usage: urlsift resolve [OPTIONS] [REF...]

Resolve URL references against a base URL and print their absolute form,
one a line. References come from the arguments or, when there are none,
from standard input, one a line (a trailing CR is dropped; an empty line is
the empty reference, which means the base itself, so output lines stay in
step with input lines). Each reference is first stripped of what a person
wraps a URL in (Appendix E): surrounding <...> or "...", a "URL:" prefix,
and any whitespace inside. Without --base only absolute URLs are accepted;
they are checked (and normalized with --normalize) and printed. Put --
before references that start with '-'.

Resolvers:
  rfc3986  (default) RFC 3986: '?y' keeps the base path, '..' stops at the root
  rfc2396  the URL draft's Section 5.2 exactly: '../../../g' gives http://a/../g
  browser  as browsers parse: '\' as '/', 'http:g' relative, canonical form
)";

constexpr std::string_view epilog = R"(
Output (--format jsonl): one object a reference with "ref" (as given),
"url", its "scheme", "site", "path", "query" and "fragment" (null when
undefined), "base" (null without --base) and "warnings" (Section 7:
password-in-userinfo, non-default-port, reserved-port, escaped-crlf).

Examples:
  $ urlsift resolve --base 'http://a/b/c/d;p?q' ../g '?y' 'g;x?y#s'
  http://a/b/g
  http://a/b/c/d;p?y
  http://a/b/c/g;x?y#s
  $ urlsift resolve '<URL: http://www.ics.uci.edu/pub/ ietf/uri/>'
  http://www.ics.uci.edu/pub/ietf/uri/
  $ printf '../x\n#top\n' | urlsift resolve --base http://example.org/a/b
  http://example.org/x
  http://example.org/a/b#top
  $ urlsift resolve --normalize 'HTTP://www.XEROX.com:80/%7euser'
  http://www.xerox.com/~user

Exit status: 0 if every reference was resolved, 2 if the base or any
reference was bad (the others are still printed; each bad one is reported
on standard error with the byte where it went wrong).
)";

// `s` for a message on a terminal: control characters shown as \xHH, so
// that a reference cannot move the cursor or change colours.
std::string printable(std::string_view s) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if (b < 0x20 || b == 0x7F) {
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 0xF];
        } else {
            out += c;
        }
    }
    return out;
}

// Resolves each reference and writes the results; remembers failures.
class resolve_job {
public:
    resolve_job(std::optional<resolver> base, resolve_options options, format fmt, output& out)
        : base_(std::move(base)), options_(options), format_(fmt), out_(out) {}

    void run(std::string_view given) {
        const std::string ref = strip_user_typed(given);
        url_.clear();
        if (base_) {
            if (auto f = base_->resolve_to(url_, ref)) return report(given, ref, describe(f->code), f->offset);
        } else {
            auto url = resolve_absolute(ref, options_);
            if (!url) {
                if (url.error() == error::base_not_absolute)
                    return report(given, ref, "relative reference needs --base", std::nullopt);
                return report(given, ref, describe(url.error()), url.error_offset());
            }
            url_ = std::move(*url);
        }
        if (format_ == format::jsonl)
            write_json(given);
        else
            out_.write(url_);
        out_.put('\n');
        out_.end_record();
    }

    bool failed() const noexcept { return failed_; }

private:
    void write_json(std::string_view given) {
        const reference_parts p = parse_reference(url_);
        line_.clear();
        line_ += "{\"ref\":";
        append_json_string(line_, given);
        line_ += ",\"url\":";
        append_json_string(line_, std::string_view(url_));
        line_ += ",\"scheme\":";
        append_json_string(line_, p.scheme);
        line_ += ",\"site\":";
        append_json_string(line_, p.site);
        line_ += ",\"path\":";
        append_json_string(line_, p.path);
        line_ += ",\"query\":";
        append_json_string(line_, p.query);
        line_ += ",\"fragment\":";
        append_json_string(line_, p.fragment);
        line_ += ",\"base\":";
        if (base_)
            append_json_string(line_, std::string_view(base_->base()));
        else
            line_ += "null";
        line_ += ",\"warnings\":";
        append_json_warnings(line_, url_);
        line_ += '}';
        out_.write(line_);
    }

    // One line on stderr: the reference as given, what it was read as when
    // the wrappers made a difference, and why it was rejected.
    void report(std::string_view given, std::string_view ref, std::string_view why, std::optional<std::size_t> at) {
        failed_ = true;
        out_.flush();  // keep stdout and stderr in order on a terminal
        std::string msg = "urlsift resolve: '";
        msg += printable(given);
        msg += '\'';
        if (ref != given) {
            msg += " (read as '";
            msg += printable(ref);
            msg += "')";
        }
        msg += ": ";
        msg += why;
        if (at) {
            msg += " at byte ";
            msg += std::to_string(*at);
        }
        msg += '\n';
        std::cerr << msg << std::flush;
    }

    std::optional<resolver> base_;
    resolve_options options_;
    format format_;
    output& out_;
    std::string url_;   ///< the current result; reused between references
    std::string line_;  ///< the current jsonl record; reused
    bool failed_ = false;
};

}  // namespace

int cmd_resolve(const args& a) {
    po::options_description visible("Options");
    visible.add_options()                                                        //
        ("help,h", "show this help and exit")                                    //
        ("base,b", po::value<std::string>(), "base URL to resolve against")      //
        ("resolver", po::value<std::string>()->default_value("rfc3986"),
         "rfc3986, rfc2396 or browser")                                          //
        ("normalize", "normalize results (Section 6: case, default port, escapes, IDNA)")  //
        ("format", po::value<std::string>()->default_value("text"), "text or jsonl");
    const auto vm = parse_command_line("resolve", a, visible, "ref");
    if (vm.count("help") != 0) {
        print_help(usage, visible, epilog);
        return 0;
    }

    resolve_options options;
    const auto& mode_name = vm["resolver"].as<std::string>();
    const auto mode = parse_resolve_mode(mode_name);
    if (!mode)
        throw usage_error("resolve", "unknown --resolver '" + mode_name + "' (choose one of: rfc3986|rfc2396|browser)");
    options.mode = *mode;
    options.normalize = vm.count("normalize") != 0;
    const format fmt = parse_format("resolve", vm["format"].as<std::string>(), "text|jsonl");

    std::optional<resolver> base;
    if (vm.count("base") != 0) {
        const auto& given = vm["base"].as<std::string>();
        const std::string stripped = strip_user_typed(given);
        auto made = resolver::make(stripped, options);
        if (!made) {
            std::cerr << "urlsift resolve: bad --base '" << printable(given) << "': " << describe(made.error());
            if (made.error() != error::base_not_absolute) std::cerr << " at byte " << made.error_offset();
            std::cerr << " (a base is an absolute URL, such as http://example.org/docs/)\n";
            return 2;
        }
        base.emplace(std::move(*made));
    }

    output out(STDOUT_FILENO);
    resolve_job job(std::move(base), options, fmt, out);
    if (vm.count("ref") != 0) {
        for (const auto& ref : vm["ref"].as<std::vector<std::string>>()) job.run(ref);
    } else {
        // One reference a line; a person typing them sees each answer at once.
        if (::isatty(STDIN_FILENO) == 1) out.set_flush_each(true);
        std::string carry;
        auto take_line = [&](std::string_view line) {
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            job.run(line);
        };
        std::string error;
        auto source = text_source::open({.binary_as_text = true}, error);
        const std::string problem = source->read_file("-", [&](std::string_view chunk) {
            while (!chunk.empty()) {
                const auto nl = chunk.find('\n');
                if (nl == std::string_view::npos) {
                    carry.append(chunk);
                    break;
                }
                if (carry.empty()) {
                    take_line(chunk.substr(0, nl));
                } else {
                    carry.append(chunk.substr(0, nl));
                    take_line(carry);
                    carry.clear();
                }
                chunk.remove_prefix(nl + 1);
            }
            return true;
        }).error;
        if (!carry.empty()) take_line(carry);
        if (!problem.empty()) {
            out.flush();
            std::cerr << "urlsift resolve: standard input: " << problem << '\n';
            return 2;
        }
    }
    out.flush();
    return job.failed() ? 2 : 0;
}

}  // namespace urlsift::cli
