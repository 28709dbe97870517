// Fuzz target: read_mail's own reader of simple messages against GMime's.
//
// Input: one byte of settings, then the bytes of a message or a mailbox
// (at most 64 KiB; longer inputs are skipped).
//
//   byte 0  bit 0  a mailbox (else one message)
//          bit 1  a base below the message's own: bit 2 says which of
//                 http://a/b/c/d;p?q and https://example.org/docs/
//          bit 3  abbreviations: all (else none)
//          bit 4  read through a file descriptor (a memfd), else from memory
//
// Property checked: each input is read twice, with simple messages read
// without GMime and with every message read by GMime, and both readings
// give the same: how the read ended, every message (number, offset,
// Message-ID, notes, header URLs with their lines, each part's path, type,
// base, text and line map) and every reference scan_message reports, with
// all its fields. Nothing crashes, leaks or reads out of bounds.

#include <urlsift/mail.hpp>

#include "fuzz_check.hpp"
#include "mail/simple_message.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace {

constexpr std::size_t max_input = 64 * 1024;

struct settings {
    urlsift::mail_format format = urlsift::mail_format::message;
    urlsift::mail_scan_options scan;
    bool through_fd = false;
};

settings settings_from(std::uint8_t b) {
    static constexpr const char* bases[] = {"http://a/b/c/d;p?q", "https://example.org/docs/"};
    settings s;
    s.format = (b & 0x1u) != 0 ? urlsift::mail_format::mbox : urlsift::mail_format::message;
    if ((b & 0x2u) != 0) s.scan.base = bases[(b >> 2u) & 0x1u];
    s.scan.scan.abbrev.kinds = (b & 0x8u) != 0 ? urlsift::abbrev_all : urlsift::abbrev_none;
    s.through_fd = (b & 0x10u) != 0;
    return s;
}

void add(std::string& out, std::string_view name, std::string_view value) {
    out.append(name).append("=").append(std::to_string(value.size())).append(":").append(value).append(" ");
}
void add(std::string& out, std::string_view name, std::uint64_t value) { add(out, name, std::to_string(value)); }

/// Everything read_mail and scan_message give for a message, as text.
std::string describe(const urlsift::mail_message& m, const settings& s) {
    std::string out;
    add(out, "message", m.number);
    add(out, "offset", m.offset);
    add(out, "id", m.message_id);
    add(out, "automatic", m.automatic);
    for (const auto& n : m.notes) add(out, "note", n);
    for (const auto& h : m.header_urls) {
        add(out, "header", h.header);
        add(out, "value", h.value);
        add(out, "path", h.path);
        add(out, "base", h.base.value_or("-"));
        add(out, "line", h.line);
    }
    for (const auto& p : m.parts) {
        add(out, "part", p.path);
        add(out, "type", p.content_type);
        add(out, "html", p.html);
        add(out, "text", p.text);
        add(out, "streamed", static_cast<bool>(p.read_text));
        add(out, "base", p.base.value_or("-"));
        add(out, "from", urlsift::to_string(p.base_from));
        add(out, "alternative-of", p.alternative_of);
        add(out, "links", p.links.size());
        add(out, "body-line", p.body_line);
        add(out, "kept", p.lines_kept);
        for (const std::uint32_t b : p.soft_breaks) add(out, "soft", b);
    }
    out += "\n";
    urlsift::scan_message(m, s.scan, [&out](urlsift::mail_reference& mr) {
        const urlsift::found_reference& r = mr.ref;
        add(out, "url", r.url);
        add(out, "raw", r.raw);
        add(out, "cleaned", r.cleaned);
        add(out, "at", std::to_string(r.offset) + "+" + std::to_string(r.length) + " " + std::to_string(r.line) +
                           ":" + std::to_string(r.column) + " outer " + std::to_string(r.outer.offset) + "+" +
                           std::to_string(r.outer.length));
        add(out, "wrapper", urlsift::to_string(r.wrapper));
        add(out, "form", urlsift::to_string(r.form));
        add(out, "joined", r.joined);
        add(out, "truncated", r.truncated);
        for (const auto& a : r.alternatives) add(out, "alternative", a);
        for (const auto& p : r.pieces) add(out, "piece", std::to_string(p.offset) + "+" + std::to_string(p.length));
        const auto& a = r.around;
        add(out, "around", std::string{a.before, a.before_punctuation, a.after, a.after_punctuation} + " " +
                               std::to_string(a.quote_depth) + " " + std::to_string(a.quote_depth_end) + " " +
                               std::to_string(a.in_brackets) + std::to_string(a.in_longer_reading) +
                               std::to_string(a.line_break_after));
        add(out, "part", mr.path);
        add(out, "header", mr.header);
        add(out, "anchor", mr.anchor_text);
        add(out, "base", mr.base);
        add(out, "from", urlsift::to_string(mr.base_from));
        add(out, "input-line", mr.input_line);
        out += "\n";
        return true;
    });
    return out;
}

/// What reading `bytes` comes to, as text.
std::string read(std::string_view bytes, const settings& s, bool simple) {
    urlsift::detail::set_simple_messages(simple);
    std::string out;
    const auto sink = [&](urlsift::mail_message& m) {
        out += describe(m, s);
        return true;
    };
    urlsift::mail_read got;
    if (s.through_fd) {
        const int fd = ::memfd_create("fuzz-mail-fast", 0);
        if (fd < 0) return "no memfd";
        if (::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()) &&
            ::lseek(fd, 0, SEEK_SET) == 0)
            got = urlsift::read_mail_fd(fd, s.format, sink);
        ::close(fd);
    } else {
        got = urlsift::read_mail(bytes, s.format, sink);
    }
    add(out, "status", static_cast<std::uint64_t>(got.what));
    add(out, "error", got.error);
    add(out, "messages", got.messages);
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size - 1 > max_input) return 0;
    const settings s = settings_from(data[0]);
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::string by_gmime = read(bytes, s, false);
    const std::string simple = read(bytes, s, true);
    if (simple != by_gmime) {
        // Written whole: the texts may hold NUL bytes.
        std::fputs("GMime alone:\n", stderr);
        std::fwrite(by_gmime.data(), 1, by_gmime.size(), stderr);
        std::fputs("\nsimple messages read without it:\n", stderr);
        std::fwrite(simple.data(), 1, simple.size(), stderr);
        std::fputs("\n", stderr);
    }
    URLSIFT_FUZZ_CHECK(simple == by_gmime);
    return 0;
}
