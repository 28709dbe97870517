// Which messages a program sent about mail (automatic_message.hpp).

#include "mail/automatic_message.hpp"

#include "text/ascii.hpp"

#include <gmime/gmime.h>

#include <array>

namespace urlsift::detail {

namespace {

constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim_blanks(std::string_view s) noexcept {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

/// Whether `from` holds a mailbox reports come from (`MAILER-DAEMON@host`,
/// `<postmaster@host>`, or the name as a word) or one no one reads, that
/// notifications come from (`no-reply@`, `noreply@`, `do-not-reply@`,
/// `gmail-noreply@`).
bool from_program_mailbox(std::string_view from) noexcept {
    constexpr std::array<std::string_view, 2> names{"mailer-daemon", "postmaster"};
    constexpr std::array<std::string_view, 6> unread{"noreply", "no-reply", "no_reply",
                                                     "donotreply", "do-not-reply", "do_not_reply"};
    std::size_t word = 0; // where the current word of `from` starts
    for (std::size_t i = 0; i <= from.size(); ++i) {
        const bool ends = i == from.size() || from[i] == '@' || from[i] == '>' || is_blank(from[i]) ||
                          from[i] == '<' || from[i] == '"' || from[i] == ',';
        if (!ends) continue;
        const std::string_view local = from.substr(word, i - word);
        word = i + 1;
        // The report mailboxes as a word of their own too: `MAILER-DAEMON <>`.
        for (const std::string_view name : names)
            if (iequals(local, name)) return true;
        if (i == from.size() || from[i] != '@') continue;
        for (std::size_t k = 0; k < local.size(); ++k)
            for (const std::string_view name : unread)
                if (starts_with_nocase(local.substr(k), name)) return true;
    }
    return false;
}

}  // namespace

bool sent_as_automatic(std::string_view return_path, std::string_view from) noexcept {
    return trim_blanks(return_path) == "<>" || from_program_mailbox(from);
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
