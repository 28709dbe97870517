#include "cli/escape.hpp"

#include <cstdint>

namespace urlsift::cli {

namespace {

constexpr char hex_digits[] = "0123456789abcdef";

void append_hex_byte(std::string& out, std::string_view prefix, unsigned char b) {
    out += prefix;
    out += hex_digits[b >> 4];
    out += hex_digits[b & 15];
}

/// Whether a cell whose first written character is `c` is one a spreadsheet
/// would run as a formula (OWASP's list for CSV injection).
bool starts_formula(char c) noexcept { return std::string_view("=+-@\t\r").find(c) != std::string_view::npos; }

/// How tsv writes `c`: its escape, or empty when it is written as it is.
std::string_view tsv_escape(char c) noexcept {
    switch (c) {
    case '\t': return "\\t";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\\': return "\\\\";
    default: return {};
    }
}

/// The code point of the well-formed sequence of two or three bytes at s[i].
std::uint32_t code_point(std::string_view s, std::size_t i, std::size_t len) noexcept {
    const auto b = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k])); };
    if (len == 2) return (b(0) & 0x1Fu) << 6 | (b(1) & 0x3Fu);
    return (b(0) & 0x0Fu) << 12 | (b(1) & 0x3Fu) << 6 | (b(2) & 0x3Fu);
}

}  // namespace

bool is_hidden_format(std::string_view s, std::size_t i, std::size_t len) noexcept {
    if (len != 2 && len != 3) return false;
    // Unicode's Bidi_Control characters, and the zero-width format
    // characters (general category Cf) that belong to no script.
    const std::uint32_t cp = code_point(s, i, len);
    return cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t min = 0;
    std::uint32_t cp = 0;
    if (b0 < 0x80) return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2, min = 0x80, cp = b0 & 0x1Fu;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3, min = 0x800, cp = b0 & 0x0Fu;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4, min = 0x10000, cp = b0 & 0x07u;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    for (std::size_t k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

void append_visible(std::string& out, std::string_view s, bool keep_lines) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        if (c < 0x80) {
            if ((c == '\n' || c == '\t') && keep_lines) out += static_cast<char>(c);
            else if (c == '\n') out += "\\n";
            else if (c == '\t') out += "\\t";
            else if (c == '\r') out += "\\r";
            else append_hex_byte(out, "\\x", c);
            ++i;
            continue;
        }
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            append_hex_byte(out, "\\x", c);
            ++i;
        } else if (is_c1_control(s, i, len) || is_hidden_format(s, i, len)) {
            const std::uint32_t cp = code_point(s, i, len);
            append_hex_byte(out, "\\u", static_cast<unsigned char>(cp >> 8));
            append_hex_byte(out, "", static_cast<unsigned char>(cp & 0xFF));
            i += len;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
}

std::string visible(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    append_visible(out, s);
    return out;
}

void append_csv_field(std::string& out, std::string_view s) {
    const bool formula = !s.empty() && starts_formula(s.front());
    if (!formula && s.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += s;
        return;
    }
    out += '"';
    if (formula) out += '\'';
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

void append_tsv_field(std::string& out, std::string_view s) {
    // The guard looks at the cell as written: a leading tab or CR is
    // written as `\t` or `\r`, which a spreadsheet does not run.
    if (!s.empty() && tsv_escape(s.front()).empty() && starts_formula(s.front())) out += '\'';
    for (char c : s) {
        if (const std::string_view escape = tsv_escape(c); !escape.empty())
            out += escape;
        else
            out += c;
    }
}

}  // namespace urlsift::cli
