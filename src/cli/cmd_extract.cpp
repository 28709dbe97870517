// urlsift extract: list the references found in files, grep-style.

#include "cli/color.hpp"
#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/mail_input.hpp"
#include "cli/input.hpp"
#include "cli/input_kind.hpp"
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/records.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <urlsift/abbrev.hpp>
#include <urlsift/document.hpp>
#include <urlsift/document_scan.hpp>
#include <urlsift/resolution.hpp>
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
         tabs (tab, newline, CR and backslash in a field written as \t \n
         \r \\); a cell starting with = + - @ gets a leading ', as in csv
  With --unwrap, url is the target of a gateway's link (Safe Links,
  Proofpoint URL Defense v1 to v3, Google's /url redirect; a link wrapped
  again is unwrapped up to 4 times); jsonl adds wrapped (the link as found)
  and gateway (safelinks, proofpoint-v1, proofpoint-v2, proofpoint-v3,
  google), null for other URLs; csv and tsv add them as two last columns.
  On a terminal, control characters in any format are shown escaped, as
  they are in coloured output (--color; text output only).
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
  urlsift extract -f jsonl --base https://example.org/docs/ --base-root docs -r docs/

Documents: a Markdown or HTML file (by name, .md or .html, or for HTML by
its start; --input markdown|html for any file) is read with its format's
parser. The links it declares ([text](dest), ![alt](dest), [ref]: dest,
<autolinks>, href, src, srcset, action, meta refresh, ...) are listed as
written, resolved against the document's base (HTML's <base href>, then
--base; --base-root gives each file of a tree its own); jsonl names
their form (markdown-link, markdown-image, markdown-definition,
markdown-autolink, html-attribute, html-refresh) and anchor_text. Text
between them is read as plain text is; code spans and blocks, <script>,
<style>, <pre> and <code> are not read.

Files (-r): with no DIR the current directory is read. Hidden files and
directories are skipped unless --hidden, and so is what a .gitignore or
.ignore file in a directory walked leaves out, unless --no-ignore (blank
lines, # comments, ! negation, a trailing / for directories, a leading /
to anchor, * ? [...] and **). -g GLOB keeps only the files that match
(!GLOB: skips them) and comes before ignore files; --include and
--exclude match file names, also those given as operands.

Listing files: -l prints the name of each file with a URL, -L of each
without one, -c how many each has; -q prints nothing and stops at the
first URL. -m NUM stops reading a file after NUM URLs. -0 ends each record
(line, name or count) with NUL; -Z puts a NUL after each file name
instead of ':' (grep's -Z), so that -lZ and -l0 give the same.

Exit status: 0 if a URL was found, 1 if none was, 2 on error (an unreadable
file is reported on stderr, unless -s, and the others are still read).
With -q, 0 as soon as a URL is found, even after an error. With -L, as in
grep 3.5 and later: 0 if a URL was found in some file, not if a file was
listed.
)help";

struct settings {
    format fmt = format::text;
    bool line_numbers = false;
    bool with_filename = false;
    bool nul = false;      ///< -0: NUL ends each record
    bool name_nul = false; ///< -Z: NUL after each file name
    bool count = false;
    enum class listing { urls, with_urls, without_urls, none };
    listing list = listing::urls; ///< -l, -L, -q
    std::optional<unsigned long long> max_count; ///< -m: URLs a file at most
    bool color = false;
    bool escape = false;   ///< control characters shown escaped: a terminal, or colour
    bool no_messages = false; ///< -s: no message about an input that cannot be read
    bool unique = false;
    bool raw = false;
    bool warnings = false; ///< Section 7 warnings as notes on stderr
    bool relative = false; ///< list relative references even without a base to resolve them
    bool unwrap = false;   ///< --unwrap: a mail security gateway's link listed as its target
    bool headers = false;  ///< --headers: a mail header's URLs in text, csv and tsv output too
    bool binary_text = false;
    bool canonicalize = false; ///< apply the resolver mode/normalization to absolute URLs without a base
    std::optional<std::string> base;
    resolve_options resolve{};
    std::string encoding; ///< empty: UTF-8, passed through
    memory_cap memory{};  ///< --max-memory
};

class extractor {
public:
    extractor(const settings& st, scan_options so, output& out, text_source source, input_setting input,
              input_bases& bases)
        : st_(st), scan_(std::move(so)), out_(out), source_(std::move(source)), input_(input), bases_(bases) {
        gateway_.on = st.unwrap;
        mail_.scan = scan_;
        mail_.resolve = st.resolve;
    }

    /// Scans one input. Returns the number of references written, or -1
    /// when the input could not be read (reported on stderr).
    long run(const listed_file& file) {
        const std::string& path = file.path;
        label_ = path == "-" ? (st_.fmt == format::text ? "(standard input)" : "-") : path;
        count_ = 0;
        std::string error;
        base_ = bases_.for_input(path, error);
        mail_.base = base_ ? base_->base() : std::string();
        ending end = ending::read;
        if (error.empty() && enough_ != 0u) {
            if (reads_mail(input_)) {
                error = read_as_mail(
                    path, input_, source_.decompresses(), st_.memory.parse_memory,
                    [&](mail_message& m, mail_format as) { return scan_mail(m, as); },
                    [&](const std::string* whole, input_kind kind) {
                        std::string text_error;
                        end = read_text(file, whole, text_error, kind);
                        return text_error;
                    });
            } else {
                end = read_text(file, nullptr, error);
            }
        }
        if (!error.empty()) {
            out_.flush();
            if (!st_.no_messages) std::cerr << "urlsift extract: " << visible(path) << ": " << error << '\n';
            return -1;
        }
        if (end == ending::skipped) return 0;
        const long count = count_;
        using enum settings::listing;
        if (st_.list == with_urls || st_.list == without_urls) {
            if ((count > 0) == (st_.list == with_urls)) {
                line_.clear();
                append_colored(line_, path == "-" ? "(standard input)" : path, color_role::file, st_.color, st_.escape);
                end_record(st_.nul || st_.name_nul);
            }
        } else if (st_.count && st_.list == urls) {
            line_.clear();
            if (st_.with_filename) append_file_name();
            line_ += std::to_string(count);
            end_record(st_.nul);
        }
        return count;
    }

private:
    /// The scanner, as new, for the next input: one is kept for them all,
    /// so that many small files do not each allocate its memory.
    scanner& fresh_scanner() {
        if (scanner_) {
            scanner_->reset();
            return *scanner_;
        }
        return scanner_.emplace(scan_, sink_);
    }

    enum class ending : unsigned char { read, skipped };

    /// Reads an input that is not mail: its bytes `whole` when they were
    /// read already (a pipe under --input mail or auto), else the file, as
    /// `decided` says or, without it, as --input and the input decide.
    /// Plain text streams through the scanner; a document is read whole,
    /// for its format's parser. Sets `error` when the input cannot be read.
    ending read_text(const listed_file& file, const std::string* whole, std::string& error,
                     std::optional<input_kind> decided = std::nullopt) {
        const std::string& path = file.path;
        // When only the content can tell, the first chunk decides.
        const bool sniff = !decided && needs_head(input_, path);
        input_kind kind = decided ? *decided : sniff ? input_kind::text : decide_input(input_, path, {});
        bool first = true;
        document_.clear();
        scanner& sc = fresh_scanner();
        // The scanner stops taking text once its sink has said stop, and the
        // file is read no further (grep -m, -l, -q).
        const auto take = [&](std::string_view text) {
            if (first && sniff) kind = decide_input(input_, path, text);
            first = false;
            if (kind != input_kind::text && !st_.memory.holds(document_.size() + text.size())) {
                // Past what may be held for its parser, a document is read
                // as it streams: as plain text.
                note(path, read_as_text_note(st_.memory));
                kind = input_kind::text;
                const bool more = sc.feed(document_);
                std::string().swap(document_);
                if (!more) return false;
            }
            if (kind == input_kind::text) return sc.feed(text);
            document_.append(text);
            return true;
        };
        text_read got;
        if (whole == nullptr) {
            got = source_.read_file(path, std::ref(take));
        } else if (!st_.binary_text && source_.looks_binary(*whole)) {
            got.what = text_read::status::binary;
        } else {
            take(*whole);
        }
        const bool skipped = got.what == text_read::status::binary;
        const std::vector<std::string> notes =
            st_.list == settings::listing::none ? std::vector<std::string>{} : reading_notes(got, source_);
        if (!notes.empty()) out_.flush();
        std::string hint;
        for (const auto& note : notes) {
            if (skipped) hint += "; " + note;
            else std::cerr << "urlsift extract: " << visible(path) << ": note: " << note << '\n';
        }
        if (got.what == text_read::status::failed) {
            error = got.error;
            return ending::read;
        }
        if (skipped) {
            if (st_.list != settings::listing::none) {
                out_.flush();
                std::cerr << "urlsift extract: " << visible(path) << ": binary file skipped (";
                // Written in pieces: `"(" + hint.substr(2)` sets off GCC 12's -Wrestrict.
                if (hint.empty()) std::cerr << "use --binary text to scan it";
                else std::cerr << std::string_view(hint).substr(2);
                std::cerr << ")\n";
            }
            return ending::skipped;
        }
        if (kind == input_kind::text) sc.finish();
        else scan_as_document(path, *document_format_of(kind));
        return ending::read;
    }

    /// A message of a mail input: its header URLs and text and HTML parts,
    /// each resolved against the base its part has (Section 5.1), else the
    /// input's.
    bool scan_mail(const mail_message& m, mail_format as) {
        mbox_ = as == mail_format::mbox;
        if (!m.notes.empty() && st_.list != settings::listing::none) {
            out_.flush();
            for (const std::string& note : m.notes)
                std::cerr << "urlsift extract: " << visible(label_) << ": note: message " << m.number << ", "
                          << visible(note) << '\n';
        }
        return scan_message(m, mail_, [this](mail_reference& r) {
            // DESIGN: without a base, only what can be made absolute is a result.
            if (r.ref.form == reference_form::relative && r.base.empty() && !st_.relative) return true;
            gateway_.apply(r.ref);
            mail_ref_ = &r;
            const bool shown = emit<true>(r.ref);
            mail_ref_ = nullptr;
            if (shown) ++count_;
            return more();
        });
    }

    /// Whether the input being read may give more references (-m, -l, -L, -q).
    bool more() const noexcept { return !enough_ || static_cast<unsigned long long>(count_) < *enough_; }

    /// The document read into `document_`, through its format's reader:
    /// its declared links and what the scanner finds in its prose, against
    /// the document's own base (<base href>) when it has one. A document its
    /// reader leaves unread is read as plain text, with a note.
    void scan_as_document(const std::string& path, document_format fmt) {
        const document_layout layout = read_document(document_, fmt, st_.memory.parse_memory, path);
        if (!layout.unread.empty()) {
            note(path, read_as_text_note(fmt, layout.unread));
            scanner& sc = fresh_scanner();
            if (sc.feed(document_)) sc.finish();
            return;
        }
        const std::optional<resolver> base = document_base(layout, base_, st_.resolve);
        const resolver* file_base = base_;
        base_ = base ? &*base : nullptr;
        shown_base_ = base_ ? &base_->base() : nullptr;
        scan_document(document_, layout, scan_, nullptr, sink_);
        base_ = file_base;
        shown_base_ = nullptr;
    }

    /// Says `what` of the input at `path` on stderr, unless the listing is off (-q).
    void note(const std::string& path, std::string_view what) {
        if (st_.list == settings::listing::none) return;
        out_.flush();
        std::cerr << "urlsift extract: " << visible(path) << ": note: " << what << '\n';
    }

    /// The URL as listed: without a base, an absolute URL as the resolver
    /// mode and normalization make it.
    const std::string& shown_url(const found_reference& r) {
        const bool resolved = st_.base || (mail_ref_ != nullptr && !mail_ref_->base.empty());
        if (!st_.canonicalize || resolved || r.form == reference_form::relative) return r.url;
        auto c = resolve_absolute(r.url, st_.resolve);
        if (!c) return r.url;
        canonical_ = std::move(*c);
        return canonical_;
    }

    /// Lists `r`, unless it is a duplicate (-u) or a mail header's URL not
    /// asked for. One instance for mail's references and one for the
    /// others, each with one caller: the scanner's sink runs per reference.
    template <bool from_mail>
    bool emit(const found_reference& r) {
        // A mail header's URLs are listed in jsonl, elsewhere with --headers.
        if constexpr (from_mail)
            if (!mail_ref_->header.empty() && st_.fmt != format::jsonl && !st_.headers) return false;
        const std::string& url = shown_url(r);
        if (st_.unique && !seen_.insert(st_.raw ? r.raw : url).second) return false;
        if (st_.list != settings::listing::urls) return true;  // names or nothing: no URL shown, no note on one
        // jsonl has fields for both; the test here keeps the call off the
        // path of nearly every reference.
        if (st_.fmt != format::jsonl && (r.truncated || st_.warnings)) note_on(r, url);
        if (st_.count) return true;
        line_.clear();
        switch (st_.fmt) {
        case format::text:
            if (st_.with_filename) append_file_name();
            if (st_.line_numbers) {
                append_colored(line_, std::to_string(shown_line(r)), color_role::line, st_.color, false);
                append_colored(line_, ":", color_role::separator, st_.color, false);
            }
            append_colored(line_, st_.raw ? r.raw : url, color_role::url, st_.color, st_.escape);
            break;
        case format::jsonl: append_json(r, url); break;
        case format::tsv:
        case format::csv:
            append_reference_row(line_, st_.fmt == format::csv, label_, r, url, gateway_);
            if (out_.is_terminal()) {  // the separators stay, other controls are shown
                shown_.clear();
                append_visible(shown_, line_, true);
                line_.swap(shown_);
            }
            break;
        }
        end_record(st_.nul);
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
        std::cerr << "urlsift extract: " << visible(label_) << ':' << shown_line(r) << ": " << visible(url.substr(0, 200))
                  << (url.size() > 200 ? "...: " : ": ") << why << '\n';
    }

    /// The line FILE:LINE gives: in a mail input, the line of the file
    /// (mail_reference::input_line) where it is known, not the line in the
    /// decoded part.
    std::uint64_t shown_line(const found_reference& r) const noexcept {
        return mail_ref_ != nullptr && mail_ref_->input_line != 0 ? mail_ref_->input_line : r.line;
    }

    // FILE: in text output (FILE and a NUL with -Z, as grep -Z has it).
    void append_file_name() {
        append_colored(line_, label_, color_role::file, st_.color, st_.escape);
        if (st_.name_nul)
            line_ += '\0';
        else
            append_colored(line_, ":", color_role::separator, st_.color, false);
    }

    void append_json(const found_reference& r, const std::string& url) {
        line_ += "{\"file\":";
        append_json_string(line_, std::string_view(label_));
        if (mail_ref_ != nullptr) append_mail_json_place(*mail_ref_);
        append_reference_json(line_, r, url, gateway_);
        line_ += ",\"base\":";
        if (mail_ref_ != nullptr)
            append_json_or_null(mail_ref_->base);
        else if (shown_base_)
            append_json_string(line_, std::string_view(*shown_base_));
        else if (base_ && bases_.per_input())
            append_json_string(line_, std::string_view(base_->base()));
        else if (st_.base)
            append_json_string(line_, std::string_view(*st_.base));
        else
            line_ += "null";
        if (mail_ref_ != nullptr) {
            line_ += ",\"base_source\":";
            append_json_string(line_, to_string(mail_ref_->base_from));
            line_ += ",\"anchor_text\":";
            const mail_part* part = mail_ref_->part;
            append_json_or_null(part != nullptr && part->html && mail_ref_->header.empty() ? mail_ref_->anchor_text
                                                                                          : std::string_view());
        } else if (r.declared) {
            line_ += ",\"anchor_text\":";
            append_json_string(line_, std::string_view(r.declared->text));
        }
        line_ += r.truncated ? ",\"truncated\":true" : ",\"truncated\":false";
        // Section 7: a relative reference has no port to judge, but it can
        // hold a password or escaped CR/LF, and a join can make it a script.
        line_ += ",\"warnings\":";
        append_json_warnings(line_, url);
        line_ += '}';
    }

    /// Where in the mail input a reference is: its message and part, and
    /// the header it came from.
    void append_mail_json_place(const mail_reference& m) {
        line_ += ",\"message\":" + std::to_string(m.message.number);
        if (mbox_) line_ += ",\"message_offset\":" + std::to_string(m.message.offset);
        line_ += ",\"message_id\":";
        append_json_or_null(m.message.message_id);
        line_ += ",\"part\":";
        append_json_or_null(m.path);
        line_ += ",\"content_type\":";
        append_json_or_null(m.part != nullptr ? std::string_view(m.part->content_type) : std::string_view());
        line_ += ",\"header\":";
        append_json_or_null(m.header);
        line_ += ",\"input_line\":";
        line_ += m.input_line != 0 ? std::to_string(m.input_line) : "null";
    }

    /// A JSON string, or null for an empty one.
    void append_json_or_null(std::string_view s) {
        if (s.empty())
            line_ += "null";
        else
            append_json_string(line_, s);
    }

    void end_record(bool nul) {
        line_ += nul ? '\0' : '\n';
        out_.write(line_);
        out_.end_record();
    }

    const settings& st_;
    scan_options scan_;
    output& out_;
    /// -l, -L and -q need one URL a file to decide; -m NUM needs NUM.
    std::optional<unsigned long long> enough_ =
        st_.list == settings::listing::urls ? st_.max_count : std::optional<unsigned long long>(1);
    long count_ = 0; ///< references written from the input being read
    std::string label_;
    std::string line_;
    std::string canonical_;
    std::string shown_;
    std::unordered_set<std::string> seen_;
    text_source source_;
    input_setting input_;
    input_bases& bases_;
    const resolver* base_ = nullptr;          ///< the input's base (--base, --base-root), or null
    mail_scan_options mail_;                  ///< how a mail input's messages are read; its base is base_'s
    bool mbox_ = false;                       ///< the mail input being read is a mailbox
    const mail_reference* mail_ref_ = nullptr; ///< while a mail input's reference is listed: where it is
    const std::string* shown_base_ = nullptr; ///< the document's own base while one is read, for jsonl
    std::string document_;                    ///< a document read whole
    gateway_note gateway_; ///< --unwrap: what it did to the reference being written
    /// Where every reference goes, from the scanner and from a document:
    /// the resolution stage against `base_`, then the listing. Relative
    /// references are left out when there is no base to make them absolute.
    reference_sink sink_ = [this](found_reference& r) {
        if (base_) resolve_reference(r, *base_);
        // DESIGN: without a base, only what can be made absolute is a result.
        if (r.form == reference_form::relative && !base_ && !st_.relative) return true;
        gateway_.apply(r);
        if (emit<false>(r)) ++count_;
        return more();
    };
    std::optional<scanner> scanner_; ///< last: its sink uses the members above; see fresh_scanner
};

}  // namespace

namespace {

/// The options of extract, as given.
struct extract_options {
    standard_settings standard;
    std::string format;
    bool line_number{};
    bool with_filename{};
    bool no_filename{};
    bool null{};
    bool null_after_name{};
    bool count{};
    bool files_with_matches{};
    bool files_without_match{};
    bool quiet{};
    std::optional<long long> max_count;
    bool no_messages{};
    std::string color;
    bool line_buffered{};
    bool unique{};
    bool warnings{};
    bool raw{};
    bool relative{};
    bool unwrap{};
    reading_settings reading;
    walk_settings walk;
    mail_settings mail;
    scan_settings scan;
    std::vector<std::string> operands;
};

constexpr std::string_view format_choices[] = {"text", "jsonl", "csv", "tsv"};
constexpr std::string_view no_filename[] = {"no-filename"};
constexpr std::string_view with_filename[] = {"with-filename"};
constexpr std::string_view without_match[] = {"files-without-match"};
constexpr std::string_view with_matches[] = {"files-with-matches"};

constexpr option_row<extract_options> extract_table[] = {
    {{.name = "format", .short_name = 'f', .value = value_kind::choice,
      .help = "output format: text (default), jsonl, csv, tsv", .default_value = "text", .choices = format_choices},
     &extract_options::format},
    {{.name = "line-number", .short_name = 'n', .help = "prefix each URL with its line number (text)"},
     &extract_options::line_number},
    {{.name = "with-filename", .short_name = 'H',
      .help = "prefix each URL with its file name (default with several files)", .excludes = no_filename},
     &extract_options::with_filename},
    {{.name = "no-filename", .help = "never prefix file names", .excludes = with_filename},
     &extract_options::no_filename},
    {{.name = "null", .short_name = '0', .help = "end records with NUL instead of newline"}, &extract_options::null},
    {{.name = "null-after-name", .short_name = 'Z',
      .help = "put a NUL after each file name instead of ':' (grep's -Z)"},
     &extract_options::null_after_name},
    {{.name = "count", .short_name = 'c', .help = "print only the number of URLs found per file"},
     &extract_options::count},
    {{.name = "files-with-matches", .short_name = 'l', .help = "print only the names of files with a URL",
      .excludes = without_match},
     &extract_options::files_with_matches},
    {{.name = "files-without-match", .short_name = 'L', .help = "print only the names of files without a URL",
      .excludes = with_matches},
     &extract_options::files_without_match},
    {{.name = "quiet", .short_name = 'q', .help = "print nothing; stop at the first URL found (exit status 0)"},
     &extract_options::quiet},
    {{.name = "max-count", .short_name = 'm', .value = value_kind::number,
      .help = "stop reading a file after NUM URLs (negative: no limit)"},
     &extract_options::max_count},
    {no_messages_option, &extract_options::no_messages},
    {{.name = "color", .value = value_kind::choice,
      .help = "colour file names, line numbers and URLs: auto (default: on a terminal), always, never; --colour too",
      .default_value = "auto", .choices = color_choices, .value_name = "WHEN"},
     &extract_options::color},
    {{.name = "line-buffered", .help = "write each line at once (default when output is a terminal)"},
     &extract_options::line_buffered},
    {{.name = "unique", .short_name = 'u', .help = "print each URL once, at its first occurrence"},
     &extract_options::unique},
    {{.name = "warnings", .help = "note Section 7 warnings on stderr (jsonl always has them)"},
     &extract_options::warnings},
    {{.name = "raw", .help = "print the text as written between the wrappers (line breaks kept)"},
     &extract_options::raw},
    {{.name = "relative", .help = "without --base, list relative references too, as written"},
     &extract_options::relative},
    {{.name = "unwrap",
      .help = "list a link rewritten by a mail security gateway (Safe Links, Proofpoint URL Defense, Google "
              "redirect) as the URL it points to"},
     &extract_options::unwrap},
};

void add_options(option_set& set, extract_options& o) {
    set.add(standard_options, o.standard);
    set.add(extract_table, o);
    add_reading_options(set, o.reading);
    add_walk_options(set, o.walk);
    add_mail_options(set, o.mail);
    add_scan_options(set, o.scan, abbrev_help::all_but_ipv4);
}

}  // namespace

const command_spec extract_command{
    .name = "extract",
    .summary = "list the URLs found in files or standard input",
    .usage = usage,
    .epilog = epilog,
    .operands = operand_kind::files,
    .run = cmd_extract,
    .list_options = [](option_set& set) {
        static extract_options unused;
        add_options(set, unused);
    },
};

int cmd_extract(const args& a) {
    extract_options o;
    option_set set;
    add_options(set, o);
    parse_command_line("extract", a, set, o.operands);
    if (answered_help_or_version(o.standard, extract_command, set)) return 0;
    scan_settings& ss = o.scan;
    const walk_settings& walk = o.walk;

    settings st;
    st.fmt = parse_format("extract", o.format, "text|jsonl|csv|tsv");
    st.line_numbers = o.line_number;
    st.nul = o.null;
    st.name_nul = o.null_after_name;
    st.count = o.count;
    // grep: -q wins over -l and -L, and -l over -L (the last given, when
    // both are; Boost cannot tell which, so -l).
    if (o.quiet)
        st.list = settings::listing::none;
    else if (o.files_with_matches)
        st.list = settings::listing::with_urls;
    else if (o.files_without_match)
        st.list = settings::listing::without_urls;
    if (o.max_count && *o.max_count >= 0) st.max_count = static_cast<unsigned long long>(*o.max_count);
    st.no_messages = o.no_messages;
    st.unique = o.unique;
    st.raw = o.raw;
    st.warnings = o.warnings;
    st.relative = o.relative;
    st.unwrap = o.unwrap;
    st.resolve = make_resolve_options("extract", ss);
    st.memory = make_memory_cap("extract", ss);
    st.canonicalize = st.resolve.normalize || st.resolve.mode == resolve_mode::browser;
    st.binary_text = parse_binary_as_text("extract", o.reading.binary);
    scan_options so = make_scan_options("extract", ss, abbrev_default);
    std::string encoding_error;
    auto source = text_source::open(
        {.encoding = o.reading.encoding, .binary_as_text = st.binary_text, .decompress = o.reading.search_zip},
        encoding_error);
    if (!source) throw usage_error("extract", encoding_error);
    if (ss.base && !ss.base->empty()) st.base = *ss.base;

    const std::vector<std::string>& operands = o.operands;
    std::vector<input_error> errors;
    std::vector<listed_file> files = list_files(operands, walk, errors);
    skip_output_file(files, errors);
    const input_setting input = parse_input_setting("extract", o.mail.input);
    st.headers = o.mail.headers;
    st.with_filename =
        !o.no_filename && (o.with_filename || files.size() + errors.size() > 1 || walk.recursive);

    output out(1);
    // Colour is for people reading text: never in the data formats.
    st.color = use_color("extract", o.color, out.is_terminal()) && st.fmt == format::text;
    st.escape = out.is_terminal() || st.color;
    // Someone is watching, or asked to see each line as it is found.
    out.set_flush_each(out.is_terminal() || o.line_buffered);
    if (st.fmt == format::csv && !st.count && st.list == settings::listing::urls) {
        out.write(reference_csv_header(st.unwrap));
        out.put(st.nul ? '\0' : '\n');
    }
    input_bases bases("extract", ss);
    extractor ex(st, std::move(so), out, std::move(*source), input, bases);
    bool found = false, failed = false;
    for (const auto& e : errors) {
        if (!st.no_messages) std::cerr << "urlsift extract: " << visible(e.path) << ": " << e.message << '\n';
        failed = true;
    }
    for (const auto& f : files) {
        const long n = ex.run(f);
        if (n < 0) failed = true;
        if (n > 0) found = true;
        // grep -q: done at the first match, whatever came before.
        if (found && st.list == settings::listing::none) return 0;
    }
    out.flush();
    // As grep's (3.5 and later, -L included): whether a URL was found, not
    // whether a file was listed; an error outweighs both.
    if (failed) return 2;
    return found ? 0 : 1;
}

}  // namespace urlsift::cli
