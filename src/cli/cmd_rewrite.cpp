// urlsift rewrite: copy text through with its references made absolute.

#include "cli/atomic_file.hpp"
#include "cli/commands.hpp"
#include "cli/diff.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/mail_input.hpp"
#include "cli/input.hpp"
#include "cli/input_kind.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/mail.hpp>
#include <urlsift/rewriter.hpp>
#include <urlsift/text_source.hpp>

#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace urlsift::cli {

namespace {

constexpr std::string_view usage = R"help(Usage: urlsift rewrite [OPTIONS] [FILE|DIR ...]

Copy text to standard output, byte for byte, changing only the references it
makes absolute: relative references in <...> or after URL: (given --base),
abbreviated URLs such as www.w3.org/Addressing/, and URLs broken across lines
(joined into one piece). Wrappers (<>, quotes, URL:) stay as written, and
absolute URLs written on one line are left alone unless --normalize. Running
it again on its own output changes nothing. With no FILE, or when FILE is -,
standard input is read; output is flushed as it goes, so it works as a
display filter (urlsift rewrite | less).
)help";

constexpr std::string_view epilog = R"help(
It edits only what it is sure of. Abbreviated URLs are completed when
they start with www. or ftp.; other service hosts (gopher., news., wais.),
bare host names (example.org) and mail addresses are left as written
unless asked (--abbrev all, or a list that names them): in a man page,
a changelog or a message such words are as often servers, file names,
code or relays as links, and an address is an address, not a link to fix.
A reference to the document itself (<#section-4>, [up](#top), href="")
stays as written: it needs no base.

In-place editing (-i) writes each file's new text beside it (a hidden
.FILE.urlsift-XXXXXX), syncs it to disk and renames it over the original;
with a SUFFIX the original is kept as FILE+SUFFIX. A file with nothing to
rewrite is not touched. On any error, and on Ctrl-C, SIGTERM or SIGHUP, the
original stays as it was and the temporary file is removed; after an error
the other files are still processed. As with sed -i:
  - only regular files are edited: a directory, device, FIFO or socket is
    refused;
  - a symbolic link is replaced by a regular file holding the new text,
    unless --follow-symlinks, which edits the file it names instead;
  - a read-only file in a writable directory is edited, keeping its mode;
  - owner, group, set-ID bits and extended attributes (ACLs) are kept where
    permitted; editing another user's file makes the new file yours,
    without its set-ID bits;
  - a file with several hard links is replaced by a new file: the other
    links keep the old text.
Two urlsift runs editing one file take turns: the second waits for the
first's lock (up to 10 s; on file systems with flock), then reads what the
first wrote. A temporary file left by a killed run (kill -9) is removed by
the next run on that file once it is an hour old. Files with a NUL byte
anywhere are skipped unless --binary text. -r chooses files as 'urlsift
extract' does: hidden files and what .gitignore and .ignore files leave
out are skipped (--hidden, --no-ignore), and -g, --include and --exclude
apply.

With --input mail (one message), mbox (a mailbox) or auto (mail when the
input starts with a header block or a 'From ' line, else text), messages
are read as MIME: headers, the MIME structure and every part with nothing
to change stay byte for byte. Only text/plain parts are rewritten (HTML
parts are not rewritten yet), each against its own base (Content-Base or
Content-Location of the part or an enclosing part, else --base), reading
its text decoded, quoted-printable and format=flowed soft breaks joined; a
changed part is written again in its own charset and transfer encoding,
flowed text staying flowed. A part whose new text its charset cannot hold,
and signed or encrypted parts (multipart/signed, multipart/encrypted,
application/pkcs7-mime), are left unchanged, with a note on standard
error. --encoding applies to text input only: a message names its own
charsets. As a mail reader's display filter (mutt):
  set display_filter="urlsift rewrite --input auto"

Markdown and HTML documents (by name, .md or .html, or for HTML by their
start; --input markdown|html for any file) are read with their format's
parser. Only the destinations of their links change: a relative
[text](dest), ![alt](dest), [ref]: dest, href, src, srcset, action, ...
becomes absolute against the document's base (HTML's <base href>, then
--base), keeping <...>, quotes, titles, escapes and character references
as written; code spans, fenced and indented code, <script>, <style>,
<pre> and <code> are never edited, and text between them is rewritten as
plain text is. The new document is read again with the same parser
before it is written: an edit that would make a link read as anything
but its absolute form, or change a byte of code, is left out with a
note. To absolutize a tree published under a site URL, give each file
its own base with --base-root:
  urlsift rewrite -i -r --base https://example.org/docs/ --base-root docs docs/
gives docs/api/x.md the base https://example.org/docs/api/x.md.

With --encoding the input is read in that charset and the output written
in it too. Its text must encode back to exactly its bytes: one that does
not (bytes invalid in the charset, say) is reported with exit status 2 and,
with -i, left as it was, since rewriting it would change bytes outside the
edits.

Examples:
  urlsift rewrite --base 'http://a/b/c/d;p?q' doc.txt
  urlsift rewrite -i.bak --base https://example.org/docs/ docs/*.txt
  urlsift rewrite --diff -r --base https://example.org/docs/ docs/    review first
  urlsift rewrite --only joined --style angle < mail.txt
  urlsift rewrite -i --encoding latin1 --base https://example.org/ old-notes.txt
  urlsift rewrite --input mail --base https://example.org/ msg.eml
  urlsift rewrite --diff -r --base https://example.org/docs/ --base-root docs docs/

Exit status: 0 when done, 2 on error. With --dry-run or --diff: 0 if
something would change, 1 if nothing would, 2 on error.
)help";

struct settings {
    rewrite_options rewrite;
    bool in_place = false;
    bool follow_symlinks = false;
    std::string backup_suffix;
    bool dry_run = false;
    bool diff = false;
    bool binary_text = false;
    std::string encoding = "utf-8";
    input_setting input = input_setting::unset; ///< --input
    resolve_options resolve;      ///< for the bases a message gives its parts
    memory_cap memory{};          ///< --max-memory
    input_bases* bases = nullptr; ///< the base of each input (--base, --base-root)
    bool no_messages = false;     ///< -s: no message about an input that cannot be read
    bool decompress = false;      ///< -z: compressed files read as the text they hold
};

/// The rewrite options for the input `path`: its own base with
/// --base-root. nullopt when it has none it should have (reported).
std::optional<rewrite_options> options_for(const settings& st, const std::string& path);

void report(const std::string& path, const std::string& message) {
    std::cerr << "urlsift rewrite: " << (path == "-" ? "(standard input)" : visible(path)) << ": " << message << '\n';
}

/// An input that cannot be read, as grep says it: unless -s.
void report_unreadable(const settings& st, const std::string& path, const std::string& message) {
    if (!st.no_messages) report(path, message);
}

// `s` as `out` should show it: made visible when it is a terminal.
std::string visible_if(const output& out, std::string_view s) { return out.is_terminal() ? visible(s) : std::string(s); }

/// The input stage for `st`; `detect_binary` says whether binary input is
/// told apart (a display filter passes everything through).
text_source open_source(const settings& st, bool detect_binary) {
    std::string error;
    auto source = text_source::open({.encoding = st.encoding,
                                     .binary_as_text = st.binary_text || !detect_binary,
                                     .check_round_trip = true,
                                     .decompress = st.decompress},
                                    error);
    if (!source) throw usage_error("rewrite", error);
    return std::move(*source);
}

/// A sink for the rewriter's UTF-8 output that writes it to `write` in the
/// input's charset.
class encoded_sink {
public:
    encoded_sink(const settings& st, std::function<bool(std::string_view)> write) : write_(std::move(write)) {
        std::string error;
        if (auto e = text_encoder::open(st.encoding, error)) encoder_.emplace(std::move(*e));
        else throw usage_error("rewrite", error);
    }
    bool operator()(std::string_view utf8) {
        if (encoder_->passes_through()) return write_(utf8);
        bytes_.clear();
        encoder_->write(utf8, bytes_);
        return bytes_.empty() || write_(bytes_);
    }
    bool finish() {
        bytes_.clear();
        encoder_->finish(bytes_);
        return bytes_.empty() || write_(bytes_);
    }

private:
    std::function<bool(std::string_view)> write_;
    std::optional<text_encoder> encoder_;
    std::string bytes_;
};

// text_source tells binary input by a NUL in its first block only; an
// edit or a preview must not take a file for text because its NUL comes
// later. Returns whether `chunk` (of UTF-8 input, passed through) makes the
// input binary.
bool late_binary(const settings& st, const text_source& source, std::string_view chunk) {
    return !st.binary_text && !source.decodes() && chunk.find('\0') != std::string_view::npos;
}

// Reports a binary input as skipped, with a hint when it looks like text in
// a wide charset.
void report_binary(const std::string& path, const text_read& got, const text_source& source) {
    const std::vector<std::string> notes =
        reading_notes(got, source, "-z rewrites the text it holds to standard output or a preview");
    report(path, "binary file skipped (" + (notes.empty() ? "use --binary text to rewrite it" : notes.front()) + ")");
}

// Notes on how the input was read (a charset that does not seem to fit).
void report_notes(const std::string& path, const text_read& got, const text_source& source) {
    for (const auto& note : reading_notes(got, source)) report(path, "note: " + note);
}

// Streams one input to `out`. Returns false on a read error (reported).
bool rewrite_to_stdout(const settings& st, text_source& source, const std::string& path, output& out) {
    const std::optional<rewrite_options> options = options_for(st, path);
    if (!options) return false;
    encoded_sink sink(st, [&out](std::string_view s) {
        out.write(s);
        return true;
    });
    rewriter w(*options, [&sink](std::string_view s) { return sink(s); });
    const text_read got = source.read_file(path, [&](std::string_view text) {
        w.feed(text);
        out.flush();  // a display filter shows text as it arrives
        return true;
    });
    w.finish();
    sink.finish();
    out.flush();
    if (!got.error.empty()) report_unreadable(st, path, got.error);
    report_notes(path, got, source);
    return got.error.empty();
}

enum class outcome { unchanged, changed, skipped, failed };

/// What writing a rewritten file came to: an outcome decided on the way
/// (skipped, failed: already reported), or the number of edits made.
using rewritten = std::variant<outcome, std::uint64_t>;

/// -i: `path` rewritten by `rewrite(target, file)`, which reads the file
/// from `target` and writes it into `file`, a temporary file that replaces
/// it when something changed.
template <class Rewrite>
outcome edit_in_place(const settings& st, const std::string& path, Rewrite&& rewrite) {
    if (path == "-") {
        report(path, "cannot edit standard input in place; give file names");
        return outcome::failed;
    }
    const edit_target target(path, st.follow_symlinks);
    if (!target.error().empty()) {
        report_unreadable(st, path, target.error() + "; left unchanged");
        return outcome::failed;
    }
    atomic_file file(target);
    if (!file.error().empty()) {
        report(path, file.error() + "; left unchanged");
        return outcome::failed;
    }
    const rewritten w = rewrite(target, file);
    if (const outcome* early = std::get_if<outcome>(&w)) return *early;
    if (!file.error().empty()) {
        report(path, file.error() + "; left unchanged");
        return outcome::failed;
    }
    if (std::get<std::uint64_t>(w) == 0) return outcome::unchanged;
    if (!target.still_in_place()) {
        report(path, "it was replaced while being rewritten; left as the other writer left it");
        return outcome::failed;
    }
    if (!file.commit(st.backup_suffix)) {
        report(path, file.error() + "; left unchanged");
        return outcome::failed;
    }
    return outcome::changed;
}

outcome rewrite_in_place(const settings& st, text_source& source, const std::string& path) {
    const std::optional<rewrite_options> options = options_for(st, path);
    if (!options) return outcome::failed;
    return edit_in_place(st, path, [&](const edit_target& target, atomic_file& file) -> rewritten {
        encoded_sink sink(st, [&file](std::string_view s) { return file.write(s); });
        rewriter w(*options, [&sink](std::string_view s) { return sink(s); });
        bool binary = false;
        const text_read got = source.read_fd(target.fd(), [&](std::string_view text) {
            binary = late_binary(st, source, text);
            return !binary && w.feed(text);
        });
        if (got.what == text_read::status::binary || binary) {
            report_binary(path, got, source);
            return outcome::skipped;
        }
        w.finish();
        sink.finish();
        if (!got.error.empty()) {
            report_unreadable(st, path, got.error + "; left unchanged");
            return outcome::failed;
        }
        if (file.error().empty()) report_notes(path, got, source);
        return w.edit_count();
    });
}

// The most --diff holds of one file: the lines of a run of nearby edits
// and their context (a file on one long line is held whole).
constexpr std::size_t diff_held_limit = 64 << 20;

// The diff of `label` for --diff, written to `out` (escaped for a
// terminal), holding at most `held` bytes of one file.
unified_diff diff_to(const std::string& label, output& out, std::size_t held) {
    return unified_diff(label, [&out](std::string_view hunks) {
        if (!out.is_terminal()) return out.write(hunks);
        std::string shown;
        append_visible(shown, hunks, true);
        out.write(shown);
    }, held);
}

// --dry-run / --diff: the input streams through the rewriter, and only the
// edits (and, for --diff, the lines around them) are kept. The diff is in
// UTF-8, whatever the input's charset.
outcome preview(const settings& st, text_source& source, const std::string& path, output& out) {
    const std::optional<rewrite_options> options = options_for(st, path);
    if (!options) return outcome::failed;
    const std::string label = path == "-" ? "(standard input)" : path;
    std::optional<unified_diff> diff;
    if (st.diff) diff.emplace(diff_to(label, out, diff_held_limit));
    // The input offset the rewriter has written up to is what it wrote,
    // less what its edits added.
    std::uint64_t written = 0, edits = 0;
    std::int64_t growth = 0;
    rewriter w(
        *options,
        [&written](std::string_view s) {
            written += s.size();
            return true;
        },
        [&](const rewrite_edit& e) {
            ++edits;
            growth += static_cast<std::int64_t>(e.replacement.size()) - static_cast<std::int64_t>(e.length);
            if (diff) diff->edit(e);
        });
    bool too_long = false, binary = false;
    const text_read got = source.read_file(path, [&](std::string_view chunk) {
        if ((binary = late_binary(st, source, chunk))) return false;
        if (diff) diff->text(chunk);
        w.feed(chunk);
        too_long = diff && !diff->settle(static_cast<std::uint64_t>(static_cast<std::int64_t>(written) - growth));
        return !too_long;
    });
    if (got.what == text_read::status::binary || binary) {
        report_binary(path, got, source);
        return outcome::skipped;
    }
    if (too_long) {
        report(path, "the lines around an edit come to more than " + memory_size(diff_held_limit) +
                         ", too long to show as a diff (review with -iSUFFIX and compare instead)");
        return outcome::failed;
    }
    if (!got.error.empty()) {
        report_unreadable(st, path, got.error);
        return outcome::failed;
    }
    report_notes(path, got, source);
    w.finish();
    if (diff) diff->finish();
    if (edits == 0) return outcome::unchanged;
    if (!st.diff) out.write(visible_if(out, label) + ": " + std::to_string(edits) + (edits == 1 ? " edit\n" : " edits\n"));
    return outcome::changed;
}

// An input read whole (at most a quarter of --max-memory, which its
// callers hold): a message or mailbox (GMime needs the message, and
// `auto` looks at its start), a Markdown or HTML document (its parser
// needs it), or, for `auto`, text. Returns the references changed;
// nullopt when the input could not be read as what it was taken for
// (reported; nothing was written).
std::optional<std::uint64_t> rewrite_whole(const settings& st, const std::string& path, std::string_view bytes,
                                           const text_sink& write, const edit_observer& on_edit = {}) {
    constexpr std::size_t head_size = 64 * 1024; // what `auto` looks at, as extract does
    const std::optional<rewrite_options> options = options_for(st, path);
    if (!options) return std::nullopt;
    const input_kind kind = decide_input(st.input, path, bytes.substr(0, head_size));
    if (kind == input_kind::markdown || kind == input_kind::html || kind == input_kind::code) {
        const document_rewrite got = rewrite_document(bytes, *document_format_of(kind), *options,
                                                      st.memory.parse_memory, path);
        if (!got.unread.empty()) {
            report(path, "left unread and unchanged: " + got.unread);
            return std::nullopt;
        }
        if (on_edit)
            for (const rewrite_edit& e : got.edits) on_edit(e);
        if (got.withheld != 0)
            report(path, "note: " + std::to_string(got.withheld) + (got.withheld == 1 ? " edit" : " edits") +
                             " left out: the document would not have read back as written (a link's escapes, "
                             "or its structure, would change)");
        write(got.text);
        return got.edits.size();
    }
    const std::optional<mail_format> as = mail_format_of(kind);
    if (!as) {
        rewriter w(*options, write, on_edit);
        w.feed(bytes);
        w.finish();
        return w.edit_count();
    }
    const auto note = [&path](std::string_view n) { report(path, "note: " + std::string(n)); };
    const mail_rewrite_result got =
        rewrite_mail(bytes, *as, {*options, st.resolve, st.memory.parse_memory}, write, on_edit, note);
    if (got.read.what == mail_read::status::failed) {
        report(path, got.read.error);
        return std::nullopt;
    }
    return got.edits;
}

// Input read whole that is not mail, with a NUL byte: binary, as the text
// path tells it when it edits or previews.
bool binary_text_input(const settings& st, const std::string& path, std::string_view bytes) {
    return !st.binary_text && !mail_format_of(decide_input(st.input, path, bytes.substr(0, 64 * 1024))) &&
           bytes.find('\0') != std::string_view::npos;
}

// An input read whole past what --max-memory lets rewrite hold: told, and
// left unchanged.
void report_too_large(const settings& st, const std::string& path) {
    report(path, "left unchanged: larger than " + memory_size(held_document_bytes(st.memory.parse_memory)) +
                     ", a quarter of --max-memory, too large to hold whole (raise --max-memory to rewrite it)");
}

bool rewrite_whole_to_stdout(const settings& st, const std::string& path, output& out) {
    std::string error;
    // Past the limit the input passes through as it is read.
    const auto [bytes, over] = read_whole_within(
        path, held_document_bytes(st.memory.parse_memory),
        [&out](std::string_view piece) {
            out.write(piece);
            return true;
        },
        error, st.decompress);
    if (!error.empty()) {
        report_unreadable(st, path, error);
        return false;
    }
    if (over) {
        out.flush();
        report_too_large(st, path);
        return false;
    }
    const auto edits = rewrite_whole(st, path, bytes, [&out](std::string_view s) {
        out.write(s);
        return true;
    });
    // What is not mail passes through unchanged: a filter loses nothing.
    if (!edits) out.write(bytes);
    out.flush();
    return edits.has_value();
}

outcome rewrite_whole_in_place(const settings& st, const std::string& path) {
    return edit_in_place(st, path, [&](const edit_target& target, atomic_file& file) -> rewritten {
        std::string error;
        const auto [bytes, over] = read_whole_within(
            target.fd(), held_document_bytes(st.memory.parse_memory), [](std::string_view) { return false; }, error);
        if (!error.empty()) {
            report_unreadable(st, path, error + "; left unchanged");
            return outcome::failed;
        }
        if (over) {
            report_too_large(st, path);
            return outcome::failed;
        }
        if (binary_text_input(st, path, bytes)) {
            report(path, "binary file skipped (use --binary text to rewrite it)");
            return outcome::skipped;
        }
        const auto edits = rewrite_whole(st, path, bytes, [&file](std::string_view s) { return file.write(s); });
        if (!edits) return outcome::failed;
        return *edits;
    });
}

// --dry-run / --diff of a message: the diff is of the input's bytes, so a
// changed quoted-printable or base64 part shows as its encoded lines.
outcome preview_whole(const settings& st, const std::string& path, output& out) {
    const std::string label = path == "-" ? "(standard input)" : path;
    std::string error;
    const auto [bytes, over] = read_whole_within(
        path, held_document_bytes(st.memory.parse_memory), [](std::string_view) { return false; }, error,
        st.decompress);
    if (!error.empty()) {
        report_unreadable(st, path, error);
        return outcome::failed;
    }
    if (over) {
        report_too_large(st, path);
        return outcome::failed;
    }
    if (binary_text_input(st, path, bytes)) {
        report(path, "binary file skipped (use --binary text to rewrite it)");
        return outcome::skipped;
    }
    std::optional<unified_diff> diff;
    if (st.diff) {
        diff.emplace(diff_to(label, out, bytes.size() + 1));
        diff->text(bytes);
    }
    const auto edits = rewrite_whole(st, path, bytes, [](std::string_view) { return true; },
                                     [&diff](const rewrite_edit& e) {
                                         if (diff) diff->edit(e);
                                     });
    if (!edits) return outcome::failed;
    if (diff) diff->finish();
    if (*edits == 0) return outcome::unchanged;
    if (!st.diff)
        out.write(visible_if(out, label) + ": " + std::to_string(*edits) + (*edits == 1 ? " edit\n" : " edits\n"));
    return outcome::changed;
}

// Takes -i, -iSUFFIX, --in-place and --in-place=SUFFIX out of `a` (sed's
// spelling: the suffix is never a separate word, so `-i FILE` edits FILE).
// Returns the suffix, or nullopt when in-place editing was not asked for.
std::optional<std::string> take_in_place(args& a) {
    std::optional<std::string> suffix;
    for (auto it = a.begin(); it != a.end();) {
        const std::string& w = *it;
        if (w == "--") break;
        if (w == "-i" || w == "--in-place") {
            suffix = "";
        } else if (w.starts_with("--in-place=")) {
            suffix = w.substr(11);
        } else if (w.starts_with("-i") && w.size() > 2) {
            suffix = w.substr(2);
        } else {
            ++it;
            continue;
        }
        it = a.erase(it);
    }
    return suffix;
}

std::optional<rewrite_options> options_for(const settings& st, const std::string& path) {
    if (st.bases == nullptr || !st.bases->per_input()) return st.rewrite;
    std::string error;
    const resolver* base = st.bases->for_input(path, error);
    if (!base) {
        report(path, error);
        return std::nullopt;
    }
    rewrite_options options = st.rewrite;
    options.base = *base;
    return options;
}

}  // namespace

namespace {

/// The options of rewrite, as given.
struct rewrite_settings {
    standard_settings standard;
    bool in_place{}; ///< never set: take_in_place takes -i before the parse, for its attached suffix
    bool follow_symlinks{};
    bool dry_run{};
    bool diff{};
    std::string only;
    std::string style;
    std::string binary;
    std::optional<std::string> encoding;
    bool search_zip{};
    bool no_messages{};
    std::string input;
    walk_settings walk;
    scan_settings scan;
    std::vector<std::string> operands;
};

constexpr std::string_view only_alone[] = {"all"};
constexpr std::string_view only_kinds[] = {"relative", "abbreviated", "joined"};
constexpr std::string_view style_choices[] = {"plain", "angle"};
constexpr std::string_view previews[] = {"dry-run", "diff"};
constexpr std::string_view besides_dry_run[] = {"in-place", "diff"};
constexpr std::string_view besides_diff[] = {"in-place", "dry-run"};

/// -z as the other commands have it, and what rewrite does not do with it.
constexpr option_spec rewrite_search_zip = [] {
    option_spec o = search_zip_option;
    o.help_more = ", to standard output or a preview: -i would write them back uncompressed, and refuses";
    return o;
}();

constexpr option_row<rewrite_settings> rewrite_table[] = {
    {{.name = "in-place", .short_name = 'i', .help = "edit the files in place; -iSUFFIX or --in-place=SUFFIX keeps a backup",
      .excludes = previews, .optional_value = true, .value_name = "SUFFIX"},
     &rewrite_settings::in_place},
    {{.name = "follow-symlinks", .help = "with -i, edit the file a symbolic link names, not the link"},
     &rewrite_settings::follow_symlinks},
    {{.name = "dry-run", .help = "write nothing; list each file that would change, with its edit count",
      .excludes = besides_dry_run},
     &rewrite_settings::dry_run},
    {{.name = "diff", .help = "write nothing; print a unified diff of what would change", .excludes = besides_diff},
     &rewrite_settings::diff},
    {{.name = "only", .value = value_kind::choice_list,
      .help = "what to rewrite: all (default) or a list of relative,abbreviated,joined", .default_value = "all",
      .choices = only_kinds, .alone = only_alone},
     &rewrite_settings::only},
    {{.name = "style", .value = value_kind::choice, .help = "plain (default), or angle: also wrap in <...> each bare URL with a blank on both sides",
      .default_value = "plain", .choices = style_choices},
     &rewrite_settings::style},
    {{.name = "binary", .value = value_kind::choice,
      .help = "files with a NUL byte, with -i or --diff: skip (default) or text", .default_value = "skip",
      .choices = binary_choices},
     &rewrite_settings::binary},
    {{.name = "encoding", .value = value_kind::text,
      .help = "charset of the input, and of the output: utf-8 (default), latin1, windows-1252, utf-16le, ...",
      .choices = encoding_suggestions, .value_name = "CHARSET"},
     &rewrite_settings::encoding},
    {rewrite_search_zip, &rewrite_settings::search_zip},
    {no_messages_option, &rewrite_settings::no_messages},
    {input_option, &rewrite_settings::input},
};

void add_options(option_set& set, rewrite_settings& o) {
    set.add(standard_options, o.standard);
    set.add(rewrite_table, o);
    add_walk_options(set, o.walk);
    add_scan_options(set, o.scan, abbrev_help::www_ftp);
}

}  // namespace

const command_spec rewrite_command{
    .name = "rewrite",
    .summary = "copy text through with its references made absolute",
    .usage = usage,
    .epilog = epilog,
    .operands = operand_kind::files,
    .run = cmd_rewrite,
    .list_options = [](option_set& set) {
        static rewrite_settings unused;
        add_options(set, unused);
    },
};

int cmd_rewrite(const args& arguments) {
    args a = arguments;
    const std::optional<std::string> in_place = take_in_place(a);
    rewrite_settings given;
    option_set set;
    add_options(set, given);
    parse_command_line("rewrite", a, set, given.operands);
    if (answered_help_or_version(given.standard, rewrite_command, set)) return 0;
    const scan_settings& scan = given.scan;
    const walk_settings& walk = given.walk;
    const std::string& only = given.only;
    const std::string& style = given.style;
    settings st;
    st.follow_symlinks = given.follow_symlinks;
    st.no_messages = given.no_messages;
    st.decompress = given.search_zip;
    if (given.encoding) st.encoding = *given.encoding;

    // `news.gmane.org` in a changelog names a server under discussion; only
    // www. and ftp. are links often enough to edit without being asked.
    const auto sure = static_cast<abbrev_set>(abbrev_kind::www) | static_cast<abbrev_set>(abbrev_kind::ftp);
    st.rewrite.scan = make_scan_options("rewrite", scan, sure);
    st.rewrite.base = make_base("rewrite", scan);
    st.rewrite.normalize = scan.normalize;
    st.resolve = make_resolve_options("rewrite", scan);
    st.memory = make_memory_cap("rewrite", scan);
    st.input = parse_input_setting("rewrite", given.input);
    const bool mail = reads_mail(st.input);
    const bool encoded = given.encoding && st.encoding != "utf-8";
    // Documents are parsed as UTF-8; in another charset a file is text.
    if (encoded && st.input == input_setting::unset) st.input = input_setting::text;
    if (encoded && (st.input == input_setting::markdown || st.input == input_setting::html))
        throw usage_error("rewrite", "--encoding applies to --input text only: Markdown and HTML are read as UTF-8");
    input_bases bases("rewrite", scan);
    st.bases = &bases;
    if (mail && encoded)
        throw usage_error("rewrite", "--encoding applies to --input text only: a message names the charset of each part");
    const auto kinds = parse_rewrite_list(only);
    if (!kinds) throw usage_error("rewrite", "unknown --only '" + only + "' (all, or a list of relative,abbreviated,joined)");
    st.rewrite.only = *kinds;
    if (style != "plain" && style != "angle")
        throw usage_error("rewrite", "unknown --style '" + style + "' (choose plain or angle)");
    st.rewrite.angle_style = style == "angle";
    st.binary_text = parse_binary_as_text("rewrite", given.binary);
    st.diff = given.diff;
    st.dry_run = given.dry_run || st.diff;
    if (in_place) {
        st.in_place = true;
        st.backup_suffix = *in_place;
        if (st.backup_suffix.find('/') != std::string::npos)
            throw usage_error("rewrite", "the backup suffix '" + st.backup_suffix + "' must not contain '/'");
    }
    if (st.in_place && st.dry_run) st.in_place = false;  // review first: nothing is written
    if (st.in_place && st.decompress)
        throw usage_error("rewrite", "-z reads compressed files, and -i would write them back uncompressed: "
                                     "write the rewritten text to standard output (rewrite -z FILE.gz | gzip > NEW.gz)");
    if (st.in_place) atomic_file::remove_on_signals();

    const std::vector<std::string>& operands = given.operands;
    if (st.in_place && operands.empty())
        throw usage_error("rewrite", "-i edits files in place: give the files to edit");
    std::vector<input_error> errors;
    std::vector<std::string> files = expand_operands(operands, walk, errors);
    if (!st.in_place) skip_output_file(files, errors);

    // Reading in place or for a preview tells binary files apart; a display
    // filter passes everything through.
    text_source source = open_source(st, st.dry_run || st.in_place);
    output out(1, 1 << 20);  // the whole text passes through: fewer, larger writes
    bool failed = false;
    bool changed = false;
    for (const auto& e : errors) {
        report_unreadable(st, e.path, e.message);
        failed = true;
    }
    for (const auto& f : files) {
        // Mail and documents are read whole; plain text streams.
        const input_kind kind = decide_input(st.input, f, needs_head(st.input, f) ? peek_head(f) : std::string());
        if (mail || kind != input_kind::text) {
            if (st.dry_run) {
                const outcome o = preview_whole(st, f, out);
                failed |= o == outcome::failed;
                changed |= o == outcome::changed;
            } else if (st.in_place) {
                failed |= rewrite_whole_in_place(st, f) == outcome::failed;
            } else {
                failed |= !rewrite_whole_to_stdout(st, f, out);
            }
        } else if (st.dry_run) {
            const outcome o = preview(st, source, f, out);
            failed |= o == outcome::failed;
            changed |= o == outcome::changed;
        } else if (st.in_place) {
            failed |= rewrite_in_place(st, source, f) == outcome::failed;
        } else {
            failed |= !rewrite_to_stdout(st, source, f, out);
        }
    }
    out.flush();
    if (failed) return 2;
    if (st.dry_run) return changed ? 0 : 1;
    return 0;
}

}  // namespace urlsift::cli
