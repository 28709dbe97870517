#include "cli/pick_input.hpp"

#include "cli/mail_input.hpp"
#include "cli/input.hpp"
#include "cli/pick_text.hpp"

#include <urlsift/document_scan.hpp>
#include <urlsift/resolution.hpp>
#include <urlsift/scanner.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

void add_from_text(std::string_view text, const found_reference& r, pick_list& list) {
    const line_position at = line_at(text, static_cast<std::size_t>(r.offset));
    list.add({.url = r.url, .context = std::string(at.line), .focus = at.column});
}

}  // namespace

std::string read_pick_input(const std::string& path, const pick_input_settings& settings, pick_list& list,
                            std::string& note) {
    std::string error;
    const std::string bytes = read_whole(path, error);
    if (!error.empty()) return error;

    const input_kind kind = decide_input(settings.input, path, std::string_view(bytes).substr(0, 64 * 1024));
    if (const std::optional<mail_format> as = mail_format_of(kind)) {
        const auto on_reference = [&](mail_reference& r) {
            // As extract: header URLs on request, and only absolute URLs.
            if (!r.header.empty() && !settings.headers) return true;
            if (r.ref.form == reference_form::relative && r.base.empty()) return true;
            if (!r.header.empty())
                list.add({.url = r.ref.url, .context = std::string(r.header) + " header", .focus = 0});
            else if (r.part != nullptr && r.part->html)
                list.add({.url = r.ref.url, .context = std::string(r.anchor_text), .focus = 0});
            else if (r.part != nullptr && !r.part->read_text)
                add_from_text(r.part->text, r.ref, list);
            else if (r.part != nullptr)  // a part too large to hold: no line to show
                list.add({.url = r.ref.url, .context = {}, .focus = 0});
            return true;
        };
        const mail_read got = read_mail(
            bytes, *as, [&](mail_message& m) { return scan_message(m, settings.scan, on_reference); },
            settings.memory.parse_memory);
        return got.what == mail_read::status::failed ? got.error : std::string();
    }

    // Plain text, as extract reads it: a NUL byte makes it binary.
    if (bytes.find('\0') != std::string::npos) {
        note = "binary input skipped";
        return {};
    }
    std::optional<resolver> base;
    if (!settings.scan.base.empty())
        if (auto b = resolver::make(settings.scan.base, settings.scan.resolve)) base = std::move(*b);
    const bool canonicalize = settings.scan.resolve.normalize || settings.scan.resolve.mode == resolve_mode::browser;
    const auto take = [&](found_reference& r, const resolver* resolved_by) {
        // As extract: --normalize and the browser rules apply to absolute
        // URLs even without a base.
        if (!resolved_by && canonicalize && r.form != reference_form::relative)
            if (auto c = resolve_absolute(r.url, settings.scan.resolve)) r.url = std::move(*c);
        if (r.form == reference_form::relative && !resolved_by) return true;
        if (r.declared != nullptr && !r.declared->text.empty())
            list.add({.url = r.url, .context = r.declared->text, .focus = 0});
        else
            add_from_text(bytes, r, list);
        return true;
    };
    // A document too large for its parser, or that its reader leaves
    // unread, is read as plain text.
    std::optional<document_layout> layout;
    if (kind != input_kind::text) {
        const document_format fmt = *document_format_of(kind);
        if (!settings.memory.holds(bytes.size())) {
            note = read_as_text_note(settings.memory);
        } else if (layout = read_document(bytes, fmt, settings.memory.parse_memory, path); !layout->unread.empty()) {
            note = read_as_text_note(fmt, layout->unread);
            layout.reset();
        }
    }
    if (layout) {
        const std::optional<resolver> doc_base = document_base(*layout, base ? &*base : nullptr, settings.scan.resolve);
        const resolver* by = doc_base ? &*doc_base : nullptr;
        scan_document(bytes, *layout, settings.scan.scan, by, [&](found_reference& r) { return take(r, by); });
        return {};
    }
    scanner sc(settings.scan.scan, [&](found_reference& r) {
        if (base) resolve_reference(r, *base);
        return take(r, base ? &*base : nullptr);
    });
    sc.feed(bytes);
    sc.finish();
    return {};
}

}  // namespace urlsift::cli
