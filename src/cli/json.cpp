#include "cli/json.hpp"

#include "cli/escape.hpp"

#include <urlsift/warnings.hpp>

namespace urlsift::cli {

void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 0xF];
                } else {
                    out += static_cast<char>(c);
                }
            }
            ++i;
            continue;
        }
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out += "\\ufffd";
            ++i;
        } else if (is_c1_control(s, i, len)) {
            // Valid JSON either way; escaped, a C1 control (CSI) cannot act on a terminal.
            out += "\\u00";
            out += hex[static_cast<unsigned char>(s[i + 1]) >> 4];
            out += hex[static_cast<unsigned char>(s[i + 1]) & 0xF];
            i += len;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    out += '"';
}

void append_json_warnings(std::string& out, std::string_view url) {
    out += '[';
    bool first = true;
    for (const url_warning w : security_warnings(url)) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, to_string(w));
    }
    out += ']';
}

}  // namespace urlsift::cli
