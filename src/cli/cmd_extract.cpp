// urlsift extract: list the references found in files, grep-style.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/input.hpp"
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/scan_settings.hpp"

#include <urlsift/abbrev.hpp>
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>
#include <urlsift/text_source.hpp>
#include <urlsift/warnings.hpp>

#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::string_view usage =
    R"help(Usage: urlsift extract [OPTIONS] [FILE|DIR|- ...]

List the URLs found in plain text (mail, news, documents, logs), one a line.
URLs are delimited as Appendix E of RFC 2396's draft recommends: "quotes",
<angle brackets> and <URL:...> wrappers are removed, URLs broken across lines
inside <...> are joined, trailing punctuation is dropped. Abbreviated URLs
(www.w3.org/Addressing/) are completed; with --base, relative references in
<...> or after URL: are resolved. Without a base they cannot be made
absolute and are left out (--relative lists them as written). With no FILE,
or when FILE is -, standard input is read.
)help";

constexpr std::string_view epilog = R"help(
Output formats:
  text   the URL in absolute form (with --relative and no base, a relative
         reference as written), prefixed by FILE: with -H and LINE: with -n
  jsonl  one object per reference: file, line, column, offset, length, raw,
         url, wrapper, form, joined, alternatives, pieces, base, truncated,
         warnings (Section 7: password-in-userinfo, non-default-port,
         reserved-port, escaped-crlf, script-scheme; --warnings notes
         them on stderr in the other formats)
  csv    header row, then file,line,column,url,raw,wrapper,form (RFC 4180
         quoting); a cell starting with = + - @ tab or CR gets a leading '
         so that a spreadsheet shows it instead of running it as a formula
  tsv    no header; file, line, column, url, raw, wrapper, form separated by
         tabs (tab, newline and backslash in a field written as \t \n \\)
  On a terminal, control characters in any format are shown escaped.
  A URL cut at --max-url-length is noted on stderr (jsonl: "truncated").
  Columns count bytes from 1 (of the UTF-8 text, with --encoding); lines
  count LF. Standard input is named
  "(standard input)" in text output and "-" in the other formats.

Examples:
  urlsift extract mail.txt                      one URL a line
  urlsift extract -n -H --format tsv *.txt      file, line, column, URL
  urlsift extract -r -u docs/                   every distinct URL under docs/
  urlsift extract --base https://example.org/a/ notes.txt
  urlsift extract --abbrev none --raw msg.txt   scheme URLs only, as written
  urlsift extract -c -r corpus/                 how many per file

Exit status: 0 if a URL was found, 1 if none was, 2 on error (an unreadable
file is reported on stderr and the others are still read).
)help";

struct settings {
    std::optional<resolver> resolution_base; ///< the resolution stage's base (--base)
    format fmt = format::text;
    bool line_numbers = false;
    bool with_filename = false;
    bool nul = false;
    bool count = false;
    bool unique = false;
    bool raw = false;
    bool warnings = false; ///< Section 7 warnings as notes on stderr
    bool relative = false; ///< list relative references even without a base to resolve them
    bool binary_text = false;
    bool canonicalize = false; ///< apply the resolver mode/normalization to absolute URLs without a base
    std::optional<std::string> base;
    resolve_options resolve{};
    std::string encoding; ///< empty: UTF-8, passed through
};

class extractor {
public:
    extractor(const settings& st, scan_options so, output& out, text_source source)
        : st_(st), scan_(std::move(so)), out_(out), source_(std::move(source)) {}

    /// Scans one input. Returns the number of references written, or -1
    /// when the input could not be read (reported on stderr).
    long run(const std::string& path) {
        label_ = path == "-" ? (st_.fmt == format::text ? "(standard input)" : "-") : path;
        long count = 0;
        scanner sc(scan_, [&](found_reference& r) {
            if (st_.resolution_base) resolve_reference(r, *st_.resolution_base);
            // DESIGN: without a base, only what can be made absolute is a result.
            if (r.form == reference_form::relative && !st_.resolution_base && !st_.relative) return true;
            if (emit(r)) ++count;
            return true;
        });
        const text_read got = source_.read_file(path, [&](std::string_view text) {
            sc.feed(text);
            return true;
        });
        const bool skipped = got.what == text_read::status::binary;
        const std::string& err = got.error;
        const std::vector<std::string> notes = reading_notes(got, source_);
        if (!notes.empty()) out_.flush();
        std::string hint;
        for (const auto& note : notes) {
            if (skipped) hint += "; " + note;
            else std::cerr << "urlsift extract: " << visible(path) << ": note: " << note << '\n';
        }
        if (!err.empty()) {
            out_.flush();
            std::cerr << "urlsift extract: " << visible(path) << ": " << err << '\n';
            return -1;
        }
        if (skipped) {
            out_.flush();
            std::cerr << "urlsift extract: " << visible(path) << ": binary file skipped "
                      << (hint.empty() ? "(use --binary text to scan it)" : "(" + hint.substr(2) + ")") << '\n';
            return 0;
        }
        sc.finish();
        if (st_.count) {
            line_.clear();
            if (st_.with_filename) {
                append_text(line_, label_);
                line_ += ':';
            }
            line_ += std::to_string(count);
            end_record();
        }
        return count;
    }

private:
    const std::string& shown_url(const found_reference& r) {
        if (!st_.canonicalize || st_.base || r.form == reference_form::relative) return r.url;
        auto c = resolve_absolute(r.url, st_.resolve);
        if (!c) return r.url;
        canonical_ = std::move(*c);
        return canonical_;
    }

    bool emit(const found_reference& r) {
        const std::string& url = shown_url(r);
        if (st_.unique && !seen_.insert(st_.raw ? r.raw : url).second) return false;
        if (st_.fmt != format::jsonl) note_on(r, url);  // jsonl has fields for both
        if (st_.count) return true;
        line_.clear();
        switch (st_.fmt) {
        case format::text:
            if (st_.with_filename) {
                append_text(line_, label_);
                line_ += ':';
            }
            if (st_.line_numbers) {
                line_ += std::to_string(r.line);
                line_ += ':';
            }
            append_text(line_, st_.raw ? r.raw : url);
            break;
        case format::jsonl: append_json(r, url); break;
        case format::tsv:
        case format::csv:
            append_table(r, url);
            if (out_.is_terminal()) {  // the separators stay, other controls are shown
                shown_.clear();
                append_visible(shown_, line_, true);
                line_.swap(shown_);
            }
            break;
        }
        end_record();
        return true;
    }

    // Notes on stderr, in step with the output: a URL cut at the length
    // limit, and with --warnings the Section 7 warnings.
    void note_on(const found_reference& r, const std::string& url) {
        std::string why;
        if (r.truncated)
            why = "cut at --max-url-length (" + std::to_string(scan_.max_url_length) + " bytes); it goes on";
        if (st_.warnings) {
            std::string names;
            for (const url_warning w : security_warnings(url)) names += (names.empty() ? "" : ", ") + std::string(to_string(w));
            if (!names.empty()) why += (why.empty() ? "warning: " : "; warning: ") + names;
        }
        if (why.empty()) return;
        out_.flush();
        std::cerr << "urlsift extract: " << visible(label_) << ':' << r.line << ": " << visible(url.substr(0, 200))
                  << (url.size() > 200 ? "...: " : ": ") << why << '\n';
    }

    void append_text(std::string& out, std::string_view s) const {
        if (out_.is_terminal())
            append_visible(out, s);
        else
            out += s;
    }

    void append_json(const found_reference& r, const std::string& url) {
        line_ += "{\"file\":";
        append_json_string(line_, std::string_view(label_));
        line_ += ",\"line\":" + std::to_string(r.line);
        line_ += ",\"column\":" + std::to_string(r.column);
        line_ += ",\"offset\":" + std::to_string(r.offset);
        line_ += ",\"length\":" + std::to_string(r.length);
        line_ += ",\"raw\":";
        append_json_string(line_, std::string_view(r.raw));
        line_ += ",\"url\":";
        append_json_string(line_, std::string_view(url));
        line_ += ",\"wrapper\":";
        append_json_string(line_, std::string_view(to_string(r.wrapper)));
        line_ += ",\"form\":";
        append_json_string(line_, std::string_view(to_string(r.form)));
        line_ += r.joined ? ",\"joined\":true" : ",\"joined\":false";
        line_ += ",\"alternatives\":[";
        for (std::size_t i = 0; i < r.alternatives.size(); ++i) {
            if (i > 0) line_ += ',';
            append_json_string(line_, std::string_view(r.alternatives[i]));
        }
        line_ += "],\"pieces\":[";
        for (std::size_t i = 0; i < r.pieces.size(); ++i) {
            if (i > 0) line_ += ',';
            line_ += '[' + std::to_string(r.pieces[i].offset) + ',' + std::to_string(r.pieces[i].length) + ']';
        }
        line_ += "],\"base\":";
        if (st_.base)
            append_json_string(line_, std::string_view(*st_.base));
        else
            line_ += "null";
        line_ += r.truncated ? ",\"truncated\":true" : ",\"truncated\":false";
        // Section 7: a relative reference has no port to judge, but it can
        // hold a password or escaped CR/LF, and a join can make it a script.
        line_ += ",\"warnings\":";
        append_json_warnings(line_, url);
        line_ += '}';
    }

    void append_table(const found_reference& r, const std::string& url) {
        const bool csv = st_.fmt == format::csv;
        const char sep = csv ? ',' : '\t';
        const std::string line_no = std::to_string(r.line), column = std::to_string(r.column);
        const std::string_view fields[] = {label_, line_no, column, url, r.raw, to_string(r.wrapper), to_string(r.form)};
        bool first = true;
        for (std::string_view f : fields) {
            if (!first) line_ += sep;
            first = false;
            if (csv)
                append_csv_field(line_, f);
            else
                append_tsv_field(line_, f);
        }
    }

    void end_record() {
        line_ += st_.nul ? '\0' : '\n';
        out_.write(line_);
        out_.end_record();
    }

    const settings& st_;
    scan_options scan_;
    output& out_;
    std::string label_;
    std::string line_;
    std::string canonical_;
    std::string shown_;
    std::unordered_set<std::string> seen_;
    text_source source_;
};

}  // namespace

int cmd_extract(const args& a) {
    po::options_description opts("Options");
    std::string fmt_name = "text", binary = "skip", encoding = "utf-8";
    scan_settings ss;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help and exit")
        ("format,f", po::value<std::string>(&fmt_name), "output format: text (default), jsonl, csv, tsv")
        ("line-number,n", po::bool_switch(), "prefix each URL with its line number (text)")
        ("with-filename,H", po::bool_switch(), "prefix each URL with its file name (default with several files)")
        ("no-filename", po::bool_switch(), "never prefix file names")
        ("null,0", po::bool_switch(), "end records with NUL instead of newline")
        ("count,c", po::bool_switch(), "print only the number of URLs found per file")
        ("unique,u", po::bool_switch(), "print each URL once, at its first occurrence")
        ("warnings", po::bool_switch(), "note Section 7 warnings on stderr (jsonl always has them)")
        ("raw", po::bool_switch(), "print the text as written between the wrappers (line breaks kept)")
        ("relative", po::bool_switch(), "without --base, list relative references too, as written")
        ("recursive,r", po::bool_switch(), "read the files under each DIR")
        ("binary", po::value<std::string>(&binary), "files with a NUL byte: skip (default) or text")
        ("encoding", po::value<std::string>(&encoding), "charset of the input: utf-8 (default), latin1, windows-1252, ...");
    // clang-format on
    add_scan_options(opts, ss, "abbreviations to complete: all, none, or a list (www,ftp,gopher,news,wais,domain,"
                               "email,ipv4); default all but ipv4");
    const auto vm = parse_command_line("extract", a, opts, "input");
    if (vm.count("help")) {
        print_help(usage, opts, epilog);
        return 0;
    }

    settings st;
    st.fmt = parse_format("extract", fmt_name, "text|jsonl|csv|tsv");
    st.line_numbers = vm["line-number"].as<bool>();
    st.nul = vm["null"].as<bool>();
    st.count = vm["count"].as<bool>();
    st.unique = vm["unique"].as<bool>();
    st.raw = vm["raw"].as<bool>();
    st.warnings = vm["warnings"].as<bool>();
    st.relative = vm["relative"].as<bool>();
    st.resolve = make_resolve_options("extract", ss);
    st.canonicalize = st.resolve.normalize || st.resolve.mode == resolve_mode::browser;
    st.binary_text = parse_binary_as_text("extract", binary);
    scan_options so = make_scan_options("extract", ss, abbrev_default);
    st.resolution_base = make_base("extract", ss);
    std::string encoding_error;
    auto source = text_source::open({.encoding = encoding, .binary_as_text = st.binary_text}, encoding_error);
    if (!source) throw usage_error("extract", encoding_error);
    if (!ss.base.empty()) st.base = ss.base;

    const std::vector<std::string> operands =
        vm.count("input") ? vm["input"].as<std::vector<std::string>>() : std::vector<std::string>{};
    const bool recursive = vm["recursive"].as<bool>();
    std::vector<input_error> errors;
    std::vector<std::string> files = expand_operands(operands, recursive, errors);
    skip_output_file(files, errors);
    st.with_filename = !vm["no-filename"].as<bool>() &&
                       (vm["with-filename"].as<bool>() || files.size() + errors.size() > 1 || recursive);

    output out(1);
    if (st.fmt == format::csv && !st.count) {
        out.write("file,line,column,url,raw,wrapper,form");
        out.put(st.nul ? '\0' : '\n');
    }
    extractor ex(st, std::move(so), out, std::move(*source));
    bool found = false, failed = false;
    for (const auto& e : errors) {
        std::cerr << "urlsift extract: " << visible(e.path) << ": " << e.message << '\n';
        failed = true;
    }
    for (const auto& f : files) {
        const long n = ex.run(f);
        if (n < 0) failed = true;
        if (n > 0) found = true;
    }
    out.flush();
    if (failed) return 2;
    return found ? 0 : 1;
}

}  // namespace urlsift::cli
