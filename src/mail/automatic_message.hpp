#pragma once
// Messages a program sent: bounces, delivery status notifications and
// other reports, automatic replies, notifications from a mailbox no one
// reads. Their text names hosts (relays, the mail system that writes, the
// domain of an address that failed), not sites, so a bare host name in
// them is not completed.

#include <urlsift/abbrev.hpp>

#include <string_view>

typedef struct _GMimeMessage GMimeMessage;  // as <gmime/gmime.h> declares it

namespace urlsift::detail {

/// Whether a message was sent as programs send reports, replies and
/// notifications, from its Return-Path and From values as written (either
/// may be empty): with the null reverse path (RFC 5321 4.5.5, RFC 3834
/// 3.3: `Return-Path: <>`), from a mailbox `MAILER-DAEMON` or
/// `postmaster`, or from one no one reads (`no-reply@`, `noreply@`...).
bool sent_as_automatic(std::string_view return_path, std::string_view from) noexcept;
/// Whether a message GMime parsed is automatic: sent so, or a
/// `multipart/report` (RFC 6522: delivery status, RFC 3464; disposition,
/// RFC 8098; feedback, RFC 5965).
bool is_automatic_message(GMimeMessage* message) noexcept;

/// Abbreviations as the text of an automatic message is read: without
/// bare host names (`www.` and `ftp.` names and mail addresses stay).
constexpr abbrev_options automatic_message_abbrev(abbrev_options a) noexcept {
    a.kinds &= static_cast<abbrev_set>(~static_cast<abbrev_set>(abbrev_kind::domain));
    return a;
}

}  // namespace urlsift::detail
