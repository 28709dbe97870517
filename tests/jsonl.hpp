#pragma once
// A small reader for the flat JSON objects of the conformance suites
// (shared/conformance/*/*.jsonl): one object a line, whose values are
// strings, arrays of strings, numbers, booleans or null. Strings are
// returned as UTF-8 with every JSON escape decoded, \uXXXX surrogate pairs
// included. Values of other shapes (nested arrays such as twitter-text's
// `indices`, objects) are parsed over and kept as `other`, unread.
// `read_json_array` reads a whole .json file that is one array of such
// objects, with strings between them.
//
//     auto row = urlsift::test::parse_jsonl_line(R"({"ref": "g", "alt": ["a", "b"]})");
//     row->string("ref") == "g";  row->strings("alt").size() == 2

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace urlsift::test {

/// A JSON value of a flat object: null, a scalar (string, or the text of a
/// number or boolean) or an array of scalars. (A plain struct rather than a
/// variant: GCC 12 warns falsely about variants of strings under ASan.)
struct json_value {
    enum class kind { null, scalar, array, other };
    kind type = kind::null;
    std::string text;                ///< the scalar; empty otherwise
    std::vector<std::string> items;  ///< the array's items; empty otherwise

    static json_value null() { return {}; }
    static json_value scalar(std::string s) { return {kind::scalar, std::move(s), {}}; }
    static json_value array(std::vector<std::string> v) { return {kind::array, {}, std::move(v)}; }
};

/// One parsed line: field name to value.
struct json_row {
    std::map<std::string, json_value> fields;

    bool has(const std::string& name) const { return fields.count(name) != 0; }
    /// The field as a string; nullopt when missing, null or an array.
    std::optional<std::string> string(const std::string& name) const {
        const auto it = fields.find(name);
        if (it == fields.end()) return std::nullopt;
        if (it->second.type == json_value::kind::scalar) return it->second.text;
        return std::nullopt;
    }
    /// The field as a list: an array's items, a lone string as one item, or
    /// nothing when missing or null.
    std::vector<std::string> strings(const std::string& name) const {
        const auto it = fields.find(name);
        if (it == fields.end()) return {};
        if (it->second.type == json_value::kind::array) return it->second.items;
        if (it->second.type == json_value::kind::scalar) return {it->second.text};
        return {};
    }
};

/// One item of a top-level JSON array: a flat object, or a string (such as
/// the comments between web-platform-tests cases), which leaves `row` empty.
struct json_item {
    std::string text;             ///< the string; empty for an object
    std::optional<json_row> row;  ///< the object; nullopt for a string
};

namespace detail {

class json_reader {
public:
    explicit json_reader(std::string_view s) : s_(s) {}

    /// The whole input as one flat object.
    std::optional<json_row> object() {
        auto row = members();
        if (!row) return std::nullopt;
        return finish(std::move(*row));
    }

    /// The whole input as an array of flat objects and strings; each item is
    /// kept in order, a string as a `json_row` with no fields and `text` set.
    std::optional<std::vector<json_item>> array() {
        std::vector<json_item> items;
        skip_space();
        if (!eat('[')) return std::nullopt;
        skip_space();
        if (eat(']')) return finish(std::move(items));
        for (;;) {
            skip_space();
            if (i_ < s_.size() && s_[i_] == '"') {
                auto text = string();
                if (!text) return std::nullopt;
                items.push_back({std::move(*text), std::nullopt});
            } else {
                auto row = members();
                if (!row) return std::nullopt;
                items.push_back({{}, std::move(*row)});
            }
            skip_space();
            if (eat(',')) continue;
            if (eat(']')) return finish(std::move(items));
            return std::nullopt;
        }
    }

private:
    template <class T>
    std::optional<T> finish(T parsed) {
        skip_space();
        if (i_ != s_.size()) return std::nullopt;
        return parsed;
    }

    // `{ "name": value, ... }` from i_ on, leaving i_ just after the `}`.
    std::optional<json_row> members() {
        json_row row;
        skip_space();
        if (!eat('{')) return std::nullopt;
        skip_space();
        if (eat('}')) return row;
        for (;;) {
            skip_space();
            auto name = string();
            if (!name) return std::nullopt;
            skip_space();
            if (!eat(':')) return std::nullopt;
            skip_space();
            auto v = value();
            if (!v) return std::nullopt;
            row.fields[*name] = std::move(*v);
            skip_space();
            if (eat(',')) continue;
            if (eat('}')) return row;
            return std::nullopt;
        }
    }

    void skip_space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) ++i_;
    }
    bool eat(char c) {
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }

    std::optional<json_value> value() {
        if (i_ >= s_.size()) return std::nullopt;
        if (nested_ahead()) {
            if (!skip_value()) return std::nullopt;
            return json_value{json_value::kind::other, {}, {}};
        }
        if (s_[i_] == '[') {
            ++i_;
            std::vector<std::string> items;
            skip_space();
            if (eat(']')) return json_value::array(std::move(items));
            for (;;) {
                skip_space();
                auto item = scalar();
                if (!item) return std::nullopt;
                items.push_back(std::move(*item));
                skip_space();
                if (eat(',')) continue;
                if (eat(']')) return json_value::array(std::move(items));
                return std::nullopt;
            }
        }
        if (s_.substr(i_).starts_with("null")) {
            i_ += 4;
            return json_value::null();
        }
        auto s = scalar();
        if (!s) return std::nullopt;
        return json_value::scalar(std::move(*s));
    }

    // Whether the value at i_ is an object or an array holding an array or
    // an object: a shape this reader keeps as `other`.
    bool nested_ahead() const {
        if (s_[i_] == '{') return true;
        if (s_[i_] != '[') return false;
        const auto next = s_.find_first_not_of(" \t", i_ + 1);
        return next != std::string_view::npos && (s_[next] == '[' || s_[next] == '{');
    }

    // Parses over any JSON value without keeping it.
    bool skip_value() {
        skip_space();
        if (i_ >= s_.size()) return false;
        const char open = s_[i_];
        if (open != '[' && open != '{') return s_.substr(i_).starts_with("null") ? (i_ += 4, true) : scalar().has_value();
        const char close = open == '[' ? ']' : '}';
        ++i_;
        skip_space();
        if (eat(close)) return true;
        for (;;) {
            skip_space();
            if (open == '{' && (!string() || (skip_space(), !eat(':')))) return false;
            if (!skip_value()) return false;
            skip_space();
            if (eat(',')) continue;
            return eat(close);
        }
    }

    // A string, or the text of a number, true or false.
    std::optional<std::string> scalar() {
        if (i_ < s_.size() && s_[i_] == '"') return string();
        const std::size_t begin = i_;
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != ']' && s_[i_] != '}' && s_[i_] != ' ' &&
               s_[i_] != '\t' && s_[i_] != '\r' && s_[i_] != '\n')
            ++i_;
        if (i_ == begin) return std::nullopt;
        return std::string(s_.substr(begin, i_ - begin));
    }

    std::optional<std::uint32_t> hex4() {
        if (i_ + 4 > s_.size()) return std::nullopt;
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s_[i_++];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<std::uint32_t>(c - 'A' + 10);
            else
                return std::nullopt;
        }
        return v;
    }

    static void append_utf8(std::string& out, std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::optional<std::string> string() {
        if (!eat('"')) return std::nullopt;
        std::string out;
        while (i_ < s_.size()) {
            const char c = s_[i_++];
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= s_.size()) return std::nullopt;
            switch (s_[i_++]) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                auto cp = hex4();
                if (!cp) return std::nullopt;
                if (*cp >= 0xD800 && *cp <= 0xDBFF && s_.substr(i_).starts_with("\\u")) {
                    const std::size_t save = i_;
                    i_ += 2;
                    auto low = hex4();
                    if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
                        *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
                    } else {
                        i_ = save;  // a lone high surrogate; kept as its own (ill-formed) code point
                    }
                }
                append_utf8(out, *cp);
                break;
            }
            default: return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

}  // namespace detail

/// Parses one line of a .jsonl file; nullopt when it is not a flat object.
inline std::optional<json_row> parse_jsonl_line(std::string_view line) { return detail::json_reader(line).object(); }

/// A row of a .jsonl file with its line number (1-based).
struct jsonl_line {
    std::size_t number;
    std::optional<json_row> row;  ///< nullopt when the line did not parse
};

/// Reads every non-empty line of `path`; an unreadable file gives no lines.
inline std::vector<jsonl_line> read_jsonl(const std::string& path) {
    std::vector<jsonl_line> lines;
    std::ifstream in(path, std::ios::binary);
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        lines.push_back({n, parse_jsonl_line(line)});
    }
    return lines;
}

/// Reads a .json file holding one array of flat objects and strings
/// (web-platform-tests' urltestdata.json); nullopt when the file cannot be
/// read or is not such an array.
inline std::optional<std::vector<json_item>> read_json_array(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return detail::json_reader(text).array();
}

}  // namespace urlsift::test
