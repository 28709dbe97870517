// How each input is read: --input, then the input's name, then its first bytes.

#include "cli/input_kind.hpp"

#include "cli/errors.hpp"

namespace urlsift::cli {

input_setting parse_input_setting(std::string_view command, const std::string& value, bool mail_too) {
    if (value.empty()) return input_setting::unset;
    if (value == "text") return input_setting::text;
    if (value == "markdown") return input_setting::markdown;
    if (value == "html") return input_setting::html;
    if (value == "code") return input_setting::code;
    if (mail_too) {
        if (value == "mail") return input_setting::mail;
        if (value == "mbox") return input_setting::mbox;
        if (value == "auto") return input_setting::automatic;
    }
    throw usage_error(std::string(command), "unknown --input '" + value + "' (choose one of: text, markdown, html, code" +
                                                (mail_too ? ", mail, mbox, auto)" : ")"));
}

bool reads_mail(input_setting s) noexcept {
    return s == input_setting::mail || s == input_setting::mbox || s == input_setting::automatic;
}

bool needs_head(input_setting s, std::string_view path) noexcept {
    switch (s) {
    case input_setting::unset: return path != "-" && !format_from_name(path);
    case input_setting::code:
    case input_setting::mail:
    case input_setting::automatic: return true;
    default: return false;
    }
}

input_kind decide_input(input_setting s, std::string_view path, std::string_view head) noexcept {
    const auto by_name = [&]() -> std::optional<input_kind> {
        if (path == "-") return std::nullopt;
        switch (format_from_name(path).value_or(document_format::text)) {
        case document_format::markdown: return input_kind::markdown;
        case document_format::html: return input_kind::html;
        case document_format::code: return input_kind::code;
        case document_format::text: break;
        }
        return std::nullopt;
    };
    // A file that runs with an interpreter a `#!` line names.
    const auto by_content = [&] {
        if (looks_like_html(head)) return input_kind::html;
        return code_language_of({}, head).empty() ? input_kind::text : input_kind::code;
    };
    switch (s) {
    case input_setting::text: return input_kind::text;
    case input_setting::markdown: return input_kind::markdown;
    case input_setting::html: return input_kind::html;
    case input_setting::code: return input_kind::code;
    case input_setting::mbox: return input_kind::mbox;
    case input_setting::mail: return sniff_mail(head) == mail_format::mbox ? input_kind::mbox : input_kind::message;
    case input_setting::unset:
        if (path == "-") return input_kind::text;
        if (const auto named = by_name()) return *named;
        return by_content();
    case input_setting::automatic:
        if (const auto named = by_name()) return *named;
        if (const auto mail = sniff_mail(head)) return *mail == mail_format::mbox ? input_kind::mbox : input_kind::message;
        return by_content();
    }
    return input_kind::text;
}

std::optional<document_format> document_format_of(input_kind k) noexcept {
    switch (k) {
    case input_kind::text: return document_format::text;
    case input_kind::markdown: return document_format::markdown;
    case input_kind::html: return document_format::html;
    case input_kind::code: return document_format::code;
    default: return std::nullopt;
    }
}

std::optional<mail_format> mail_format_of(input_kind k) noexcept {
    if (k == input_kind::message) return mail_format::message;
    if (k == input_kind::mbox) return mail_format::mbox;
    return std::nullopt;
}

}  // namespace urlsift::cli
