// urlsift resolve: resolve references given as arguments or on standard
// input against a base URL (Section 5.2), one result a line.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/scan_settings.hpp"

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
password-in-userinfo, non-default-port, reserved-port, escaped-crlf,
script-scheme).

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

A bad reference is reported on standard error with its input line and the
byte where it went wrong, and leaves an empty output line (in jsonl, an
object with "url": null and the "error"), so output lines stay in step
with input lines. A reference longer than --max-url-length is reported
the same way without being held in memory.

Exit status: 0 if every reference was resolved, 2 if the base or any
reference was bad (the others are still printed).
)";

// At most this much of a bad reference is quoted in its message.
constexpr std::size_t quoted_limit = 200;

// `s` for a message: control characters made visible, and cut after
// quoted_limit bytes (at a character boundary).
std::string quoted(std::string_view s) {
    if (s.size() <= quoted_limit) return visible(s);
    std::size_t cut = quoted_limit;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return visible(s.substr(0, cut)) + "...";
}

// Resolves each reference and writes the results, one output line for each
// input line or argument (an empty one for a bad reference, so that they
// stay in step); remembers failures.
class resolve_job {
public:
    resolve_job(std::optional<resolver> base, resolve_options options, format fmt, output& out)
        : base_(std::move(base)), options_(options), format_(fmt), out_(out) {}

    /// `where` names the input line ("line 3") for messages, or is empty.
    void run(std::string_view given, std::string_view where = {}) {
        const std::string ref = strip_user_typed(given);
        url_.clear();
        if (base_) {
            if (auto f = base_->resolve_to(url_, ref)) return fail(where, given, ref, describe(f->code), f->offset);
        } else {
            auto url = resolve_absolute(ref, options_);
            if (!url) {
                if (url.error() == error::base_not_absolute)
                    return fail(where, given, ref, "relative reference needs --base", std::nullopt);
                return fail(where, given, ref, describe(url.error()), url.error_offset());
            }
            url_ = std::move(*url);
        }
        if (format_ == format::jsonl) {
            write_json(given);
        } else if (out_.is_terminal()) {
            line_.clear();
            append_visible(line_, url_);
            out_.write(line_);
        } else {
            out_.write(url_);
        }
        end_line();
    }

    /// An input line longer than the limit: reported, not resolved, and
    /// not held in memory.
    void too_long(std::string_view where, std::uint64_t length, std::string_view start) {
        report(where, start, {}, "longer than --max-url-length (" + std::to_string(length) + " bytes); not resolved",
               std::nullopt);
        write_failed_record(start);
    }

    bool failed() const noexcept { return failed_; }

private:
    void end_line() {
        out_.put('\n');
        out_.end_record();
    }

    void fail(std::string_view where, std::string_view given, std::string_view ref, std::string_view why,
              std::optional<std::size_t> at) {
        report(where, given, ref, why, at);
        write_failed_record(given);
    }

    // The line a bad reference leaves: empty in text, an object with a null
    // url and the reason in jsonl.
    void write_failed_record(std::string_view given) {
        if (format_ == format::jsonl) {
            line_.clear();
            line_ += "{\"ref\":";
            append_json_string(line_, given);
            line_ += ",\"url\":null,\"error\":";
            append_json_string(line_, std::string_view(last_error_));
            line_ += '}';
            out_.write(line_);
        }
        end_line();
    }

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

    // One line on stderr: where, the reference as given, what it was read
    // as when the wrappers made a difference, and why it was rejected.
    void report(std::string_view where, std::string_view given, std::string_view ref, std::string_view why,
                std::optional<std::size_t> at) {
        failed_ = true;
        last_error_ = why;
        if (at) last_error_ += " at byte " + std::to_string(*at);
        out_.flush();  // keep stdout and stderr in order on a terminal
        std::string msg = "urlsift resolve: ";
        if (!where.empty()) {
            msg += where;
            msg += ": ";
        }
        msg += '\'';
        msg += quoted(given);
        msg += '\'';
        if (!ref.empty() && ref != given) {
            msg += " (read as '";
            msg += quoted(ref);
            msg += "')";
        }
        msg += ": ";
        msg += last_error_;
        msg += '\n';
        std::cerr << msg << std::flush;
    }

    std::optional<resolver> base_;
    resolve_options options_;
    format format_;
    output& out_;
    std::string url_;   ///< the current result; reused between references
    std::string line_;  ///< the current output line; reused
    std::string last_error_;
    bool failed_ = false;
};

// Cuts standard input into lines for the job. At most `limit` bytes of a
// line are held: a longer one is reported with its length and skipped, so
// memory stays bounded whatever the input (`< /dev/zero`).
class line_splitter {
public:
    line_splitter(resolve_job& job, std::size_t limit) : job_(job), limit_(limit) {}

    void feed(std::string_view chunk) {
        while (!chunk.empty()) {
            const auto nl = chunk.find('\n');
            const std::string_view part = chunk.substr(0, nl);
            if (nl != std::string_view::npos && length_ == 0) {
                take(part, part.size(), part.empty() ? '\0' : part.back());  // all in this chunk: no copy
            } else {
                add(part);
                if (nl == std::string_view::npos) break;
                take(carry_, length_, last_);
            }
            chunk.remove_prefix(nl + 1);
        }
    }

    void finish() {
        if (length_ > 0) take(carry_, length_, last_);
    }

private:
    void add(std::string_view part) {
        if (part.empty()) return;
        length_ += part.size();
        last_ = part.back();
        // One byte over the limit is kept for a CR that ends the line.
        const std::size_t room = limit_ + 1 - std::min(carry_.size(), limit_ + 1);
        carry_.append(part.substr(0, room));
    }

    // A line of `length` bytes, the last `last`; `line` holds all of it, or
    // its first limit + 1 bytes when it is longer.
    void take(std::string_view line, std::uint64_t length, char last) {
        ++line_number_;
        if (last == '\r') --length;
        const std::string where = "line " + std::to_string(line_number_);
        if (length > limit_)
            job_.too_long(where, length, line.substr(0, limit_));
        else
            job_.run(line.substr(0, static_cast<std::size_t>(length)), where);
        carry_.clear();
        length_ = 0;
        last_ = '\0';
    }

    resolve_job& job_;
    std::size_t limit_;
    std::string carry_;        ///< the start of a line that goes on in the next chunk
    std::uint64_t length_ = 0; ///< bytes of that line seen so far
    char last_ = '\0';        ///< its last byte so far
    std::uint64_t line_number_ = 0;
};

}  // namespace

namespace {

/// The options of resolve, as given.
struct resolve_settings {
    standard_settings standard;
    std::optional<std::string> base;
    std::string resolver;
    bool normalize{};
    long long max_url_length{};
    std::string format;
    std::vector<std::string> references;
};

constexpr std::string_view format_choices[] = {"text", "jsonl"};

constexpr option_row<resolve_settings> resolve_table[] = {
    {{.name = "base", .short_name = 'b', .value = value_kind::url, .help = "base URL to resolve against"},
     &resolve_settings::base},
    {resolver_option, &resolve_settings::resolver},
    {{.name = "normalize", .help = "normalize results (Section 6: case, default port, escapes, IDNA)"},
     &resolve_settings::normalize},
    {{.name = "max-url-length", .value = value_kind::number,
      .help = "longest reference in bytes (default 65536); a longer one is reported, not resolved",
      .default_value = "65536"},
     &resolve_settings::max_url_length},
    {{.name = "format", .short_name = 'f', .value = value_kind::choice, .help = "text or jsonl",
      .default_value = "text", .choices = format_choices},
     &resolve_settings::format},
};

void add_options(option_set& set, resolve_settings& o) {
    set.add(standard_options, o.standard);
    set.add(resolve_table, o);
}

}  // namespace

const command_spec resolve_command{
    .name = "resolve",
    .summary = "resolve references against a base URL",
    .usage = usage,
    .epilog = epilog,
    .operands = operand_kind::references,
    .run = cmd_resolve,
    .list_options = [](option_set& set) {
        static resolve_settings unused;
        add_options(set, unused);
    },
};

int cmd_resolve(const args& a) {
    resolve_settings o;
    option_set set;
    add_options(set, o);
    parse_command_line("resolve", a, set, o.references);
    if (answered_help_or_version(o.standard, resolve_command, set)) return 0;

    resolve_options options;
    const auto mode = parse_resolve_mode(o.resolver);
    if (!mode)
        throw usage_error("resolve", "unknown --resolver '" + o.resolver + "' (choose one of: rfc3986|rfc2396|browser)");
    options.mode = *mode;
    options.normalize = o.normalize;
    const format fmt = parse_format("resolve", o.format, "text|jsonl");
    const long long max_length = o.max_url_length;
    if (max_length < 16 || max_length > (1LL << 30))
        throw usage_error("resolve", "--max-url-length must be a number of bytes from 16 to 1073741824, not " +
                                         std::to_string(max_length));
    const auto limit = static_cast<std::size_t>(max_length);

    std::optional<resolver> base;
    if (o.base) base.emplace(base_from_option("resolve", strip_user_typed(*o.base), options, *o.base));

    output out(STDOUT_FILENO);
    resolve_job job(std::move(base), options, fmt, out);
    if (!o.references.empty()) {
        for (const auto& ref : o.references) {
            if (ref.size() > limit)
                job.too_long({}, ref.size(), ref);
            else
                job.run(ref);
        }
    } else {
        // One reference a line; a person typing them sees each answer at once.
        if (::isatty(STDIN_FILENO) == 1) out.set_flush_each(true);
        line_splitter lines(job, limit);
        std::string error;
        auto source = text_source::open({.binary_as_text = true}, error);
        const std::string problem = source->read_file("-", [&](std::string_view chunk) {
            lines.feed(chunk);
            return true;
        }).error;
        lines.finish();
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
