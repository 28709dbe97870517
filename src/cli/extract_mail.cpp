// `urlsift extract --input mail|mbox|auto`: messages and mailboxes through
// the mail stage (src/mail/), then the scanner and the resolution stage on
// each text part, and a listing as extract writes it, with the part,
// header and message of each reference.

#include "cli/extract_mail.hpp"

#include "cli/color.hpp"
#include "cli/errors.hpp"
#include "cli/escape.hpp"
#include "cli/input.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "cli/records.hpp"
#include "text/decompress.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/mail.hpp>
#include <urlsift/resolution.hpp>
#include <urlsift/scanner.hpp>
#include <urlsift/text_source.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>

namespace urlsift::cli {

namespace {

/// A switch of extract's: false when it is absent, so that this file keeps
/// working while extract's option table changes.
bool flag(const po::variables_map& vm, const char* name) {
    const auto it = vm.find(name);
    return it != vm.end() && !it->second.empty() && it->second.as<bool>();
}

template <class T>
std::optional<T> value(const po::variables_map& vm, const char* name) {
    const auto it = vm.find(name);
    if (it == vm.end() || it->second.empty()) return std::nullopt;
    return it->second.as<T>();
}

struct listing_settings {
    format fmt = format::text;
    bool line_numbers = false, with_filename = false, nul = false, name_nul = false, count = false;
    bool unique = false, raw = false, relative = false, no_messages = false, headers = false;
    bool unwrap = false; ///< --unwrap: a mail security gateway's link listed as its target
    bool decompress = false; ///< -z: compressed messages and mailboxes read as what they hold
    bool color = false, escape = false;
    enum class listing { urls, with_urls, without_urls, none } list = listing::urls;
    std::optional<unsigned long long> max_count;
};

class mail_extractor {
public:
    mail_extractor(const listing_settings& st, mail_scan_options mo, std::string encoding, bool binary_text,
                   output& out)
        : st_(st), mo_(std::move(mo)), encoding_(std::move(encoding)), binary_text_(binary_text), out_(out) {
        gateway_.on = st.unwrap;
    }

    /// Reads one input as `kind` ("mail", "mbox" or "auto"). Returns the
    /// references written, or -1 when the input could not be read.
    long run(const std::string& path, input_setting kind) {
        label_ = path == "-" ? (st_.fmt == format::text ? "(standard input)" : "-") : path;
        count_ = 0;
        enough_ = st_.list == listing_settings::listing::urls ? st_.max_count
                                                               : std::optional<unsigned long long>(1);
        std::string error;
        if (enough_ != 0u) error = read(path, kind);
        if (!error.empty()) {
            out_.flush();
            if (!st_.no_messages) std::cerr << "urlsift extract: " << visible(path) << ": " << error << '\n';
            return -1;
        }
        using enum listing_settings::listing;
        if (st_.list == with_urls || st_.list == without_urls) {
            if ((count_ > 0) == (st_.list == with_urls)) {
                line_.clear();
                append_colored(line_, path == "-" ? "(standard input)" : path, color_role::file, st_.color, st_.escape);
                end_record(st_.nul || st_.name_nul);
            }
        } else if (st_.count && st_.list == urls) {
            line_.clear();
            if (st_.with_filename) append_file_name();
            line_ += std::to_string(count_);
            end_record(st_.nul);
        }
        return count_;
    }

private:
    /// Reads `path` and hands its references on; returns an error message or "".
    std::string read(const std::string& path, input_setting kind) {
        return read_as_mail(
            path, kind, st_.decompress, [&](mail_message& m, mail_format as) { return message(m, as == mail_format::mbox); },
            [&](const std::string* whole, input_kind as) { return whole ? scan_text(*whole, as) : scan_text_file(path, as); });
    }

    bool message(const mail_message& m, bool mbox) {
        mbox_ = mbox;
        return scan_message(m, mo_, [&](mail_reference& r) {
            // DESIGN: without a base, only what can be made absolute is a result.
            if (r.ref.form == reference_form::relative && r.base.empty() && !st_.relative) return true;
            gateway_.apply(r.ref);
            if (emit(r.ref, &r)) ++count_;
            return !enough_ || static_cast<unsigned long long>(count_) < *enough_;
        });
    }

    /// What is not mail under `auto`, as `--input text`, `markdown` or
    /// `html` reads it.
    std::string scan_text_file(const std::string& path, input_kind kind) {
        std::string error;
        auto source = text_source::open(
            {.encoding = encoding_, .binary_as_text = binary_text_, .decompress = st_.decompress}, error);
        if (!source) return error;
        scanner sc = text_scanner();
        std::string document;
        const text_read got = source->read_file(path, [&](std::string_view text) {
            if (kind == input_kind::text) return sc.feed(text);
            document.append(text);
            return true;
        });
        if (got.what == text_read::status::failed) return got.error;
        if (got.what == text_read::status::binary) {
            if (st_.list != listing_settings::listing::none) {
                out_.flush();
                const std::vector<std::string> notes = reading_notes(got, *source);
                std::cerr << "urlsift extract: " << visible(path) << ": binary file skipped ("
                          << (notes.empty() ? "use --binary text to scan it" : notes.front()) << ")\n";
            }
            return {};
        }
        if (kind == input_kind::text) sc.finish();
        else scan_document_text(document, kind);
        return {};
    }

    std::string scan_text(const std::string& bytes, input_kind kind) {
        if (!binary_text_ && bytes.find('\0') != std::string::npos) {
            if (st_.list != listing_settings::listing::none) {
                out_.flush();
                std::cerr << "urlsift extract: " << visible(label_) << ": binary file skipped (use --binary text to scan it)\n";
            }
            return {};
        }
        if (kind != input_kind::text) {
            scan_document_text(bytes, kind);
            return {};
        }
        scanner sc = text_scanner();
        if (sc.feed(bytes)) sc.finish();
        return {};
    }

    const resolver* option_base() {
        if (!base_made_) {
            base_made_ = true;
            if (!mo_.base.empty())
                if (auto b = resolver::make(mo_.base, mo_.resolve)) base_ = std::move(*b);
        }
        return base_ ? &*base_ : nullptr;
    }

    scanner text_scanner() {
        const resolver* base = option_base();
        return scanner(mo_.scan, [this, base](found_reference& r) {
            if (base) resolve_reference(r, *base);
            return take_text(r, base != nullptr);
        });
    }

    /// A Markdown or HTML document under `auto`, through its format's reader.
    void scan_document_text(std::string_view document, input_kind kind) {
        const document_layout layout = read_document(document, *document_format_of(kind));
        const std::optional<resolver> base = document_base(layout, option_base(), mo_.resolve);
        scan_document(document, layout, mo_.scan, base ? &*base : nullptr,
                      [&](found_reference& r) { return take_text(r, base.has_value()); });
    }

    bool take_text(found_reference& r, bool resolved) {
        if (r.form == reference_form::relative && !resolved && !st_.relative) return true;
        gateway_.apply(r);
        if (emit(r, nullptr)) ++count_;
        return !enough_ || static_cast<unsigned long long>(count_) < *enough_;
    }

    bool emit(const found_reference& r, const mail_reference* m) {
        const bool from_header = m != nullptr && !m->header.empty();
        // Header URLs are listed in jsonl, elsewhere with --headers.
        if (from_header && st_.fmt != format::jsonl && !st_.headers) return false;
        if (st_.unique && !seen_.insert(st_.raw ? r.raw : r.url).second) return false;
        if (st_.list != listing_settings::listing::urls || st_.count) return true;
        line_.clear();
        switch (st_.fmt) {
        case format::text:
            if (st_.with_filename) append_file_name();
            if (st_.line_numbers) {
                append_colored(line_, std::to_string(r.line), color_role::line, st_.color, false);
                append_colored(line_, ":", color_role::separator, st_.color, false);
            }
            append_colored(line_, st_.raw ? r.raw : r.url, color_role::url, st_.color, st_.escape);
            break;
        case format::jsonl: append_json(r, m); break;
        case format::csv:
        case format::tsv: {
            append_reference_row(line_, st_.fmt == format::csv, label_, r, r.url, gateway_);
            if (out_.is_terminal()) {
                shown_.clear();
                append_visible(shown_, line_, true);
                line_.swap(shown_);
            }
            break;
        }
        }
        end_record(st_.nul);
        return true;
    }

    void append_json(const found_reference& r, const mail_reference* m) {
        const auto text_or_null = [&](std::string_view s) {
            if (s.empty())
                line_ += "null";
            else
                append_json_string(line_, s);
        };
        line_ += "{\"file\":";
        append_json_string(line_, std::string_view(label_));
        if (m != nullptr) {
            line_ += ",\"message\":" + std::to_string(m->message.number);
            if (mbox_) line_ += ",\"message_offset\":" + std::to_string(m->message.offset);
            line_ += ",\"message_id\":";
            text_or_null(m->message.message_id);
            line_ += ",\"part\":";
            text_or_null(m->path);
            line_ += ",\"content_type\":";
            text_or_null(m->part != nullptr ? std::string_view(m->part->content_type) : std::string_view());
            line_ += ",\"header\":";
            text_or_null(m->header);
        }
        append_reference_json(line_, r, r.url, gateway_);
        line_ += ",\"base\":";
        const std::string_view base = m != nullptr ? m->base : (base_ ? std::string_view(mo_.base) : std::string_view());
        text_or_null(base);
        line_ += ",\"base_source\":";
        append_json_string(line_, to_string(m != nullptr ? m->base_from : base_ ? base_source::option : base_source::none));
        if (m != nullptr) {
            line_ += ",\"anchor_text\":";
            if (m->part != nullptr && m->part->html && m->header.empty() && !m->anchor_text.empty())
                append_json_string(line_, m->anchor_text);
            else
                line_ += "null";
        } else if (r.declared != nullptr) {
            line_ += ",\"anchor_text\":";
            append_json_string(line_, std::string_view(r.declared->text));
        }
        line_ += r.truncated ? ",\"truncated\":true" : ",\"truncated\":false";
        line_ += ",\"warnings\":";
        append_json_warnings(line_, r.url);
        line_ += '}';
    }

    void append_file_name() {
        append_colored(line_, label_, color_role::file, st_.color, st_.escape);
        if (st_.name_nul)
            line_ += '\0';
        else
            append_colored(line_, ":", color_role::separator, st_.color, false);
    }

    void end_record(bool nul) {
        line_ += nul ? '\0' : '\n';
        out_.write(line_);
        out_.end_record();
    }

    const listing_settings& st_;
    mail_scan_options mo_;
    std::string encoding_;
    bool binary_text_;
    output& out_;
    std::optional<resolver> base_; ///< --base, for plain text under `auto`
    bool base_made_ = false;
    bool mbox_ = false;
    std::string label_, line_, shown_;
    long count_ = 0;
    std::optional<unsigned long long> enough_;
    std::unordered_set<std::string> seen_;
    gateway_note gateway_; ///< --unwrap: what it did to the reference being written
};

}  // namespace

void add_mail_options(po::options_description& opts, mail_settings& s) {
    // clang-format off
    opts.add_options()
        ("input", po::value<std::string>(&s.input), input_help(documents_by_default).c_str())
        ("headers", po::bool_switch(&s.headers),
            "with --input mail|mbox|auto, list URLs from List-*, Archived-At, Content-Base and Content-Location "
            "headers too (jsonl always has them)");
    // clang-format on
}

std::string read_as_mail(const std::string& path, input_setting setting, bool decompress,
                         const mail_input_sink& messages, const text_input_sink& text) {
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    struct closer {
        int fd;
        ~closer() {
            if (fd > 0) ::close(fd);
        }
    } const close_it{is_stdin ? -1 : fd};
    struct stat sb {};
    if (::fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) return "Is a directory";
    // A regular file is read by GMime from the file, a message at a time;
    // anything else (a pipe) is read whole first, as it can be read only
    // once and `auto` must look at its start. So is a compressed file under
    // -z, decompressed as it is read.
    constexpr std::size_t head_size = 64 * 1024; // what `auto` looks at
    const bool regular = S_ISREG(sb.st_mode);
    std::optional<std::string> whole;
    std::string head;
    if (regular) {
        head.resize(head_size);
        const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
        if (n < 0) return std::strerror(errno);
        head.resize(static_cast<std::size_t>(n));
    }
    if (!regular || (decompress && detail::compression_of(head) != detail::compression::none)) {
        std::string error;
        whole = read_whole(fd, error, decompress);
        if (!error.empty()) return error;
        head = whole->substr(0, head_size);
    }
    const input_kind how = decide_input(setting, path, head);
    const std::optional<mail_format> as = mail_format_of(how);
    if (!as) return text(whole ? &*whole : nullptr, how);
    const auto sink = [&](mail_message& m) { return messages(m, *as); };
    const mail_read got = whole ? read_mail(*whole, *as, sink) : read_mail_fd(fd, *as, sink);
    return got.what == mail_read::status::failed ? got.error : std::string();
}

int extract_mail(const po::variables_map& vm, const mail_settings& mail, const scan_settings& ss,
                 const std::vector<std::string>& files, const std::vector<input_error>& errors) {
    const input_setting setting = parse_input_setting("extract", mail.input);
    listing_settings st;
    st.fmt = parse_format("extract", value<std::string>(vm, "format").value_or("text"), "text|jsonl|csv|tsv");
    st.line_numbers = flag(vm, "line-number");
    st.nul = flag(vm, "null");
    st.name_nul = flag(vm, "null-after-name");
    st.count = flag(vm, "count");
    if (flag(vm, "quiet"))
        st.list = listing_settings::listing::none;
    else if (flag(vm, "files-with-matches"))
        st.list = listing_settings::listing::with_urls;
    else if (flag(vm, "files-without-match"))
        st.list = listing_settings::listing::without_urls;
    if (const auto m = value<long long>(vm, "max-count"); m && *m >= 0) st.max_count = static_cast<unsigned long long>(*m);
    st.no_messages = flag(vm, "no-messages");
    st.unique = flag(vm, "unique");
    st.raw = flag(vm, "raw");
    st.relative = flag(vm, "relative");
    st.unwrap = flag(vm, "unwrap");
    st.decompress = flag(vm, "search-zip");
    st.headers = mail.headers;
    st.with_filename = !flag(vm, "no-filename") &&
                       (flag(vm, "with-filename") || files.size() + errors.size() > 1 || flag(vm, "recursive"));

    mail_scan_options mo;
    mo.scan = make_scan_options("extract", ss, abbrev_default);
    mo.resolve = make_resolve_options("extract", ss);
    // make_base checks --base and says what is wrong with a bad one.
    if (const auto b = make_base("extract", ss)) mo.base = b->base();
    const bool binary_text = parse_binary_as_text("extract", value<std::string>(vm, "binary").value_or("skip"));

    output out(1);
    st.color = use_color("extract", value<std::string>(vm, "color").value_or("auto"), out.is_terminal()) &&
               st.fmt == format::text;
    st.escape = out.is_terminal() || st.color;
    out.set_flush_each(out.is_terminal() || flag(vm, "line-buffered"));
    if (st.fmt == format::csv && !st.count && st.list == listing_settings::listing::urls) {
        out.write(reference_csv_header(st.unwrap));
        out.put(st.nul ? '\0' : '\n');
    }
    mail_extractor ex(st, std::move(mo), value<std::string>(vm, "encoding").value_or("utf-8"), binary_text, out);
    bool found = false, failed = false;
    for (const auto& e : errors) {
        if (!st.no_messages) std::cerr << "urlsift extract: " << visible(e.path) << ": " << e.message << '\n';
        failed = true;
    }
    for (const auto& f : files) {
        const long n = ex.run(f, setting);
        if (n < 0) failed = true;
        if (n > 0) found = true;
        if (found && st.list == listing_settings::listing::none) return 0;
    }
    out.flush();
    if (failed) return 2;
    return found ? 0 : 1;
}

}  // namespace urlsift::cli
