// Fuzz target: the mail input stage, end to end.
//
// Input: one byte of settings, then the bytes of a message or a mailbox
// (at most 64 KiB; longer inputs are skipped).
//
//   byte 0  bit 0  a mailbox (else one message)
//          bit 1  a base below the message's own: bit 2 says which of
//                 http://a/b/c/d;p?q and https://example.org/docs/
//          bit 3  abbreviations: all (else none)
//          bit 4  --normalize
//          bit 5  --style angle
//          bit 6  length limit 64 (else the default)
//          bit 7  also read through a file descriptor (a memfd)
//
// Properties checked:
// - nothing crashes, leaks or reads out of bounds; a failed read hands on
//   no message, and the count read_mail reports is the count handed on;
// - read through a file descriptor, the messages are those read from memory;
// - every reference scan_message reports lies inside its part's decoded
//   text (`raw` is exactly the bytes of its span, pieces inside it); an HTML
//   link is in an HTML part; a header URL has no part and offset, line and
//   column 0;
// - rewrite_mail is lossless: its output is the input with the edits it
//   reports applied, in order and without overlap (no edits, no change);
//   an input that is not mail gives no output;
// - rewrite_mail is idempotent: its output, rewritten again, has no edit,
//   unless the rewriter itself edits the text of one of the output's parts
//   (then the rewriter is not idempotent on that text: fuzz_rewrite_roundtrip's
//   property, not this stage's).

#include <urlsift/mail.hpp>

#include "fuzz_check.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t max_input = 64 * 1024;

struct settings {
    urlsift::mail_format format = urlsift::mail_format::message;
    urlsift::mail_scan_options scan;
    urlsift::mail_rewrite_options rewrite;
    bool through_fd = false;
};

settings settings_from(std::uint8_t b) {
    static constexpr const char* bases[] = {"http://a/b/c/d;p?q", "https://example.org/docs/"};
    settings s;
    s.format = (b & 0x1u) != 0 ? urlsift::mail_format::mbox : urlsift::mail_format::message;
    urlsift::scan_options so;
    so.abbrev.kinds = (b & 0x8u) != 0 ? urlsift::abbrev_all : urlsift::abbrev_none;
    if ((b & 0x40u) != 0) so.max_url_length = 64;
    urlsift::resolve_options ro;
    ro.normalize = (b & 0x10u) != 0;
    s.scan.scan = so;
    s.scan.resolve = ro;
    s.rewrite.rewrite.scan = so;
    s.rewrite.rewrite.normalize = ro.normalize;
    s.rewrite.rewrite.angle_style = (b & 0x20u) != 0;
    s.rewrite.resolve = ro;
    if ((b & 0x2u) != 0) {
        const char* base = bases[(b >> 2u) & 0x1u];
        s.scan.base = base;
        s.rewrite.rewrite.base = *urlsift::resolver::make(base, ro);
    }
    s.through_fd = (b & 0x80u) != 0;
    return s;
}

bool same(const urlsift::mail_message& a, const urlsift::mail_message& b) {
    if (a.number != b.number || a.offset != b.offset || a.message_id != b.message_id ||
        a.header_urls.size() != b.header_urls.size() || a.parts.size() != b.parts.size())
        return false;
    for (std::size_t i = 0; i < a.header_urls.size(); ++i) {
        const auto& x = a.header_urls[i];
        const auto& y = b.header_urls[i];
        if (x.header != y.header || x.value != y.value || x.path != y.path || x.base != y.base) return false;
    }
    for (std::size_t i = 0; i < a.parts.size(); ++i) {
        const auto& x = a.parts[i];
        const auto& y = b.parts[i];
        if (x.path != y.path || x.content_type != y.content_type || x.text != y.text || x.html != y.html ||
            x.base != y.base || x.base_from != y.base_from || x.alternative_of != y.alternative_of ||
            x.links.size() != y.links.size())
            return false;
        for (std::size_t j = 0; j < x.links.size(); ++j) {
            const auto& l = x.links[j];
            const auto& m = y.links[j];
            if (l.value != m.value || l.attribute != m.attribute || l.anchor_text != m.anchor_text ||
                l.offset != m.offset || l.line != m.line || l.column != m.column)
                return false;
        }
    }
    return true;
}

void check_reference(const urlsift::mail_reference& mr) {
    const urlsift::found_reference& r = mr.ref;
    if (mr.part == nullptr) {
        // mail.hpp: a header URL has no place in a part's text.
        URLSIFT_FUZZ_CHECK(!mr.header.empty());
        URLSIFT_FUZZ_CHECK(r.offset == 0 && r.line == 0 && r.column == 0);
        return;
    }
    URLSIFT_FUZZ_CHECK(mr.header.empty() && mr.path == mr.part->path);
    if (mr.part->html) return;  // its offsets count in the decoded HTML, which the part does not keep
    const std::string& text = mr.part->text;
    URLSIFT_FUZZ_CHECK(r.offset <= text.size() && r.length <= text.size() - r.offset);
    URLSIFT_FUZZ_CHECK(r.raw == std::string_view(text).substr(r.offset, r.length));
    URLSIFT_FUZZ_CHECK(r.outer.offset <= r.offset && r.outer.offset <= text.size() &&
                       r.outer.length <= text.size() - r.outer.offset &&
                       r.offset + r.length <= r.outer.offset + r.outer.length);
    for (const auto& p : r.pieces)
        URLSIFT_FUZZ_CHECK(p.offset >= r.offset && p.offset + p.length <= r.offset + r.length);
}

std::vector<urlsift::mail_message> read_all(std::string_view bytes, const settings& s) {
    std::vector<urlsift::mail_message> messages;
    const urlsift::mail_read read = urlsift::read_mail(bytes, s.format, [&](urlsift::mail_message& m) {
        messages.push_back(m);
        return true;
    });
    URLSIFT_FUZZ_CHECK(read.what != urlsift::mail_read::status::stopped);
    URLSIFT_FUZZ_CHECK(read.messages == messages.size());
    if (read.what == urlsift::mail_read::status::failed) URLSIFT_FUZZ_CHECK(messages.empty());
    return messages;
}

/// The messages read_mail_fd reads from a memfd holding `bytes`; nullopt
/// when the memfd cannot be made (the environment, not the code under test).
std::optional<std::vector<urlsift::mail_message>> read_all_fd(std::string_view bytes, const settings& s) {
    const int fd = ::memfd_create("fuzz-mail", 0);
    if (fd < 0) return std::nullopt;
    std::vector<urlsift::mail_message> messages;
    if (::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()) && ::lseek(fd, 0, SEEK_SET) == 0) {
        const urlsift::mail_read read = urlsift::read_mail_fd(fd, s.format, [&](urlsift::mail_message& m) {
            messages.push_back(m);
            return true;
        });
        URLSIFT_FUZZ_CHECK(read.messages == messages.size());
    }
    ::close(fd);
    return messages;
}

struct rewritten {
    urlsift::mail_rewrite_result result;
    std::string out;
    std::vector<urlsift::rewrite_edit> edits;
};

rewritten rewrite(std::string_view bytes, const settings& s) {
    rewritten r;
    r.result = urlsift::rewrite_mail(
        bytes, s.format, s.rewrite,
        [&r](std::string_view chunk) {
            r.out += chunk;
            return true;
        },
        [&r](const urlsift::rewrite_edit& e) { r.edits.push_back(e); }, [](std::string_view) {});
    return r;
}

/// Whether the rewriter itself, on the text of some text/plain part of
/// `bytes` as read_mail reads it and against that part's base, makes an
/// edit: then a second rewrite_mail changes that part because the rewriter
/// is not idempotent on its text, which fuzz_rewrite_roundtrip checks, not
/// because of the mail stage.
bool rewriter_not_idempotent(std::string_view bytes, const settings& s) {
    bool edits = false;
    for (const auto& m : read_all(bytes, s))
        for (const auto& p : m.parts) {
            if (p.html || p.content_type != "text/plain") continue;
            urlsift::rewrite_options o = s.rewrite.rewrite;
            if (p.base)
                if (auto b = urlsift::resolver::make(*p.base, s.rewrite.resolve)) o.base = std::move(*b);
            urlsift::rewriter w(o, [](std::string_view) { return true; }, [&edits](const urlsift::rewrite_edit&) { edits = true; });
            w.feed(p.text);
            w.finish();
        }
    return edits;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size - 1 > max_input) return 0;
    const settings s = settings_from(data[0]);
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);

    const std::vector<urlsift::mail_message> messages = read_all(bytes, s);
    if (s.through_fd)
        if (const auto from_fd = read_all_fd(bytes, s)) {
            URLSIFT_FUZZ_CHECK(from_fd->size() == messages.size());
            for (std::size_t i = 0; i < messages.size(); ++i) URLSIFT_FUZZ_CHECK(same((*from_fd)[i], messages[i]));
        }
    for (const auto& m : messages)
        urlsift::scan_message(m, s.scan, [](urlsift::mail_reference& mr) {
            check_reference(mr);
            return true;
        });

    const rewritten once = rewrite(bytes, s);
    if (once.result.read.what == urlsift::mail_read::status::failed) {
        URLSIFT_FUZZ_CHECK(once.out.empty() && once.edits.empty());
        return 0;
    }
    // Lossless: the input with the reported edits applied, and nothing else.
    std::string expected;
    std::uint64_t at = 0;
    for (const auto& e : once.edits) {
        URLSIFT_FUZZ_CHECK(e.offset >= at && e.offset <= bytes.size() && e.length <= bytes.size() - e.offset);
        expected.append(bytes.substr(at, e.offset - at));
        expected += e.replacement;
        at = e.offset + e.length;
    }
    expected.append(bytes.substr(at));
    URLSIFT_FUZZ_CHECK(once.out == expected);
    URLSIFT_FUZZ_CHECK(once.result.parts == once.edits.size());
    if (once.result.edits == 0) URLSIFT_FUZZ_CHECK(once.edits.empty() && once.out == bytes);

    const rewritten again = rewrite(once.out, s);
    if (again.result.edits != 0 || !again.edits.empty() || again.out != once.out)
        URLSIFT_FUZZ_CHECK(rewriter_not_idempotent(once.out, s));
    return 0;
}
