// The references of a message: header URLs as the headers give them, the
// scanner on each text part, links from HTML parts, each resolved against
// the base Section 5.1 gives its part.

#include <urlsift/mail.hpp>
#include <urlsift/reference.hpp>
#include <urlsift/resolution.hpp>

#include "mail/automatic_message.hpp"
#include "mail/header_urls.hpp"
#include "mail/structured_reference.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace urlsift {

using detail::structured_reference;

namespace {

/// Where line `line` of part `p`'s decoded text is in the input (see
/// mail_reference::input_line).
std::uint64_t input_line(const mail_part& p, std::uint64_t line) noexcept {
    if (p.body_line == 0 || !p.lines_kept || line == 0) return p.body_line;
    const auto before = std::lower_bound(p.soft_breaks.begin(), p.soft_breaks.end(), line);
    return p.body_line + line - 1 + static_cast<std::uint64_t>(before - p.soft_breaks.begin());
}

/// The resolver for a base the message gave, else for the caller's.
struct chosen_base {
    const resolver* base = nullptr;
    std::string_view text;
    base_source from = base_source::none;
};

class message_scan {
public:
    message_scan(const mail_message& m, const mail_scan_options& o, const mail_reference_sink& sink)
        : m_(m), o_(o), sink_(sink) {
        if (!o.base.empty())
            if (auto b = resolver::make(o.base, o.resolve)) option_ = std::move(*b);
    }

    bool run() {
        // Only a plain part that an HTML part is the alternative of keeps
        // the URLs it holds: a large part may hold millions.
        for (const mail_part& p : m_.parts)
            if (p.html && !p.alternative_of.empty()) found_.try_emplace(p.alternative_of);
        for (const header_url& h : m_.header_urls)
            if (!header(h)) return false;
        for (const mail_part& p : m_.parts)
            if (!(p.html ? html(p) : text(p))) return false;
        return true;
    }

private:
    chosen_base choose(const std::optional<std::string>& given, base_source from) {
        if (given) {
            auto it = made_.find(*given);
            if (it == made_.end()) it = made_.emplace(*given, resolver::make(*given, o_.resolve)).first;
            if (it->second) return {&*it->second, *given, from};
        }
        if (option_) return {&*option_, o_.base, base_source::option};
        return {};
    }

    bool header(const header_url& h) {
        // List-* and Archived-At write their URLs in <...>; Content-Base
        // and Content-Location bare.
        const bool angle = detail::url_header_kind(h.header) == detail::header_kind::angle_list;
        std::optional<found_reference> made = structured_reference(h.value, angle ? wrapper_kind::angle : wrapper_kind::none);
        if (!made) return true;
        found_reference& r = *made;
        const chosen_base b = choose(h.base, base_source::enclosing);
        if (b.base) resolve_reference(r, *b.base);
        mail_reference mr{r, m_, nullptr, h.path, h.header, {}, b.text, b.from, h.line};
        return sink_(mr);
    }

    bool text(const mail_part& p) {
        const chosen_base b = choose(p.base, p.base_from);
        const auto kept = found_.find(p.path);
        auto* seen = kept != found_.end() ? &kept->second : nullptr;
        scan_options options = o_.scan;
        if (m_.automatic) options.abbrev = detail::automatic_message_abbrev(options.abbrev);
        const reference_sink found = [&](found_reference& r) {
            if (b.base) resolve_reference(r, *b.base);
            if (seen != nullptr) seen->insert(r.url);
            mail_reference mr{r, m_, &p, p.path, {}, {}, b.text, b.from, input_line(p, r.line)};
            return sink_(mr);
        };
        scanner sc(options, found);
        const auto block = [&](std::string_view text) {
            if (o_.on_text) o_.on_text(text);
            return sc.feed(text);
        };
        if (p.read_text) return p.read_text(block) && sc.finish();
        return block(p.text) && sc.finish();
    }

    bool html(const mail_part& p) {
        const chosen_base b = choose(p.base, p.base_from);
        const auto plain = p.alternative_of.empty() ? found_.end() : found_.find(p.alternative_of);
        for (const html_link& link : p.links) {
            std::optional<found_reference> made = structured_reference(link.value, wrapper_kind::quote);
            if (!made) continue;
            found_reference& r = *made;
            r.offset = link.offset;
            r.line = link.line;
            r.column = link.column;
            r.outer = {link.offset, link.value.size()};
            r.pieces = {{link.offset, link.value.size()}};
            if (b.base) resolve_reference(r, *b.base);
            // The plain alternative has this link already.
            if (plain != found_.end() && (plain->second.contains(r.url) || plain->second.contains(r.url + "/")))
                continue;
            mail_reference mr{r, m_, &p, p.path, {}, link.anchor_text, b.text, b.from, input_line(p, r.line)};
            if (!sink_(mr)) return false;
        }
        return true;
    }

    const mail_message& m_;
    const mail_scan_options& o_;
    const mail_reference_sink& sink_;
    std::optional<resolver> option_;
    /// Resolvers for the bases the message gives, made once each.
    std::unordered_map<std::string, result<resolver>> made_;
    /// The URLs found in each text part that has an HTML alternative, by path.
    std::unordered_map<std::string, std::unordered_set<std::string>> found_;
};

}  // namespace

bool scan_message(const mail_message& message, const mail_scan_options& options, const mail_reference_sink& sink) {
    return message_scan(message, options, sink).run();
}

}  // namespace urlsift
