// Which messages a program sent about mail (automatic_message.hpp).

#include "mail/automatic_message.hpp"

#include "text/ascii.hpp"

#include <gmime/gmime.h>

#include <array>

namespace urlsift::detail {

namespace {

/// Whether a local part names a mailbox no one reads: `reply` after `no`
/// or `not` (`noreply`, `no-reply`, `do_not_reply`, `gmail-noreply`).
bool unread_mailbox(std::string_view local) noexcept {
    constexpr std::array<std::string_view, 6> nots{"no", "no-", "no_", "not", "not-", "not_"};
    for (std::size_t k = 2; k + 5 <= local.size(); ++k) {
        if (to_lower(local[k]) != 'r' || !starts_with_nocase(local.substr(k), "reply")) continue;
        for (const std::string_view no : nots)
            if (ends_with_nocase(local.substr(0, k), no)) return true;
    }
    return false;
}

constexpr bool ends_word(char c) noexcept {
    return is_white(c) || c == '<' || c == '>' || c == '"' || c == ',' || c == '(' || c == ')' || c == ':';
}

/// The mailboxes reports come from.
bool report_mailbox(std::string_view local) noexcept {
    return iequals(local, "mailer-daemon") || iequals(local, "postmaster");
}

/// Whether `from` holds a mailbox reports come from (`MAILER-DAEMON@host`,
/// `<postmaster@host>`, or with no domain, `MAILER-DAEMON <>`) or one no
/// one reads, that notifications come from.
bool from_program_mailbox(std::string_view from) noexcept {
    std::size_t at = from.find('@');
    if (at == std::string_view::npos) {
        for (std::size_t i = 0, word = 0; i <= from.size(); ++i) {
            if (i < from.size() && !ends_word(from[i])) continue;
            if (report_mailbox(from.substr(word, i - word))) return true;
            word = i + 1;
        }
        return false;
    }
    for (; at != std::string_view::npos; at = from.find('@', at + 1)) {
        std::size_t local = at;
        while (local > 0 && !ends_word(from[local - 1])) --local;
        const std::string_view name = from.substr(local, at - local);
        if (report_mailbox(name) || unread_mailbox(name)) return true;
    }
    return false;
}

}  // namespace

bool sent_as_automatic(std::string_view return_path, std::string_view from) noexcept {
    return trim_white(return_path) == "<>" || from_program_mailbox(from);
}

bool is_automatic_message(GMimeMessage* message) noexcept {
    GMimeObject* object = GMIME_OBJECT(message);
    GMimeObject* body = g_mime_message_get_mime_part(message);
    if (body != nullptr && g_mime_content_type_is_type(g_mime_object_get_content_type(body), "multipart", "report") != 0)
        return true;
    // The first of each, as written (the simple reader reads the same).
    GMimeHeaderList* headers = g_mime_object_get_header_list(object);
    const auto raw = [headers](const char* name) -> std::string_view {
        GMimeHeader* h = g_mime_header_list_get_header(headers, name);
        const char* value = h != nullptr ? g_mime_header_get_raw_value(h) : nullptr;
        return value != nullptr ? value : "";
    };
    return sent_as_automatic(raw("Return-Path"), raw("From"));
}

}  // namespace urlsift::detail
