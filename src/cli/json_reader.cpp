#include "cli/json_reader.hpp"

#include "cli/escape.hpp"

#include "text/icu_text.hpp"

namespace urlsift::cli {

namespace {

/// Nesting deeper than any document urlsift writes is refused, so a hostile
/// file cannot exhaust the stack through skip().
constexpr int max_depth = 64;

}  // namespace

void json_reader::fail(const std::string& what) const {
    throw json_error("bad JSON at byte " + std::to_string(pos_) + ": " + what);
}

char json_reader::peek() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
        ++pos_;
    return pos_ < text_.size() ? text_[pos_] : '\0';
}

void json_reader::expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
}

void json_reader::literal(std::string_view word) {
    peek();
    if (text_.substr(pos_, word.size()) != word) fail("expected " + std::string(word));
    pos_ += word.size();
}

void json_reader::begin_object() {
    if (++depth_ > max_depth) fail("nested too deeply");
    expect('{');
    first_ = true;
}

bool json_reader::next_member(std::string& key) {
    if (peek() == '}') {
        ++pos_;
        --depth_;
        first_ = false;
        return false;
    }
    if (!first_) expect(',');
    first_ = false;
    if (peek() != '"') fail("expected a member name");
    key = read_string();
    expect(':');
    return true;
}

void json_reader::begin_array() {
    if (++depth_ > max_depth) fail("nested too deeply");
    expect('[');
    first_ = true;
}

bool json_reader::next_element() {
    if (peek() == ']') {
        ++pos_;
        --depth_;
        first_ = false;
        return false;
    }
    if (!first_) expect(',');
    first_ = false;
    return true;
}

std::uint32_t json_reader::read_hex4() {
    if (text_.size() - pos_ < 4) fail("short \\u escape");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        const char c = text_[pos_++];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
        else fail("bad \\u escape");
    }
    return v;
}

std::string json_reader::read_string() {
    expect('"');
    std::string out;
    for (;;) {
        if (pos_ >= text_.size()) fail("unterminated string");
        const char c = text_[pos_++];
        if (c == '"') return out;
        if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
        if (static_cast<unsigned char>(c) >= 0x80) {
            // RFC 8259 section 8.1: JSON text is UTF-8, as urlsift writes it;
            // other bytes could not be written back as they were read.
            const std::size_t len = utf8_sequence_length(text_, pos_ - 1);
            if (len == 0) fail("a string holds bytes that are not UTF-8");
            out.append(text_.substr(pos_ - 1, len));
            pos_ += len - 1;
            continue;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (pos_ >= text_.size()) fail("unterminated string");
        switch (const char e = text_[pos_++]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            std::uint32_t cp = read_hex4();
            // RFC 8259 section 7: a character outside the BMP is a surrogate pair.
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (text_.substr(pos_, 2) != "\\u") fail("lone surrogate");
                pos_ += 2;
                const std::uint32_t low = read_hex4();
                if (low < 0xDC00 || low > 0xDFFF) fail("lone surrogate");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                fail("lone surrogate");
            }
            detail::append_utf8(out, cp);
            break;
        }
        default: fail(std::string("bad escape \\") + e);
        }
    }
}

std::uint64_t json_reader::read_uint() {
    if (peek() < '0' || peek() > '9') fail("expected a non-negative integer");
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' && text_[pos_ + 1] <= '9')
        fail("leading zero");
    std::uint64_t v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        const auto d = static_cast<std::uint64_t>(text_[pos_] - '0');
        if (v > (UINT64_MAX - d) / 10) fail("number too large");
        v = v * 10 + d;
        ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
        fail("expected an integer");
    return v;
}

bool json_reader::read_bool() {
    if (peek() == 't') {
        literal("true");
        return true;
    }
    literal("false");
    return false;
}

bool json_reader::read_null() {
    if (peek() != 'n') return false;
    literal("null");
    return true;
}

void json_reader::skip() {
    switch (peek()) {
    case '{': {
        begin_object();
        for (std::string key; next_member(key);) skip();
        return;
    }
    case '[':
        begin_array();
        while (next_element()) skip();
        return;
    case '"': read_string(); return;
    case 't':
    case 'f': read_bool(); return;
    case 'n': literal("null"); return;
    default: {
        // A number: sign, digits, fraction, exponent (RFC 8259 section 6).
        const std::size_t start = pos_;
        if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
        while (pos_ < text_.size() && std::string_view("0123456789.eE+-").find(text_[pos_]) != std::string_view::npos)
            ++pos_;
        if (pos_ == start || text_[pos_ - 1] == '-') fail("expected a value");
    }
    }
}

void json_reader::end_of_input() {
    if (peek() != '\0' || pos_ != text_.size()) fail("trailing text after the document");
}

}  // namespace urlsift::cli
