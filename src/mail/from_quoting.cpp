// mboxrd's `>From ` escapes undone (from_quoting.hpp).

#include "mail/from_quoting.hpp"

namespace urlsift::detail {

void from_unescaper::feed(std::string_view in, std::string& out) {
    std::size_t i = 0;
    while (i < in.size()) {
        if (line_start_) {
            // The line's first bytes, while they may be `>...>From `.
            for (; i < in.size(); ++i) {
                held_ += in[i];
                const std::size_t marks = held_.find_first_not_of('>');
                const std::string_view rest =
                    marks == std::string::npos ? std::string_view() : std::string_view(held_).substr(marks);
                if (marks == 0 || !std::string_view("From ").starts_with(rest)) {
                    out += held_;
                    break;
                }
                if (rest == "From ") {
                    out.append(held_, 1);
                    break;
                }
            }
            if (i == in.size()) return;  // still undecided
            ++i;
            held_.clear();
            line_start_ = false;
            if (out.back() == '\n') line_start_ = true;
            continue;
        }
        const std::size_t nl = in.find('\n', i);
        const std::size_t end = nl == std::string_view::npos ? in.size() : nl + 1;
        out.append(in.substr(i, end - i));
        i = end;
        line_start_ = nl != std::string_view::npos;
    }
}

void from_unescaper::finish(std::string& out) {
    out += held_;
    held_.clear();
    line_start_ = true;
}

void unescape_from_lines(std::string& text) {
    // Every escape holds `>From `: most texts have none, and stay as they are.
    if (text.find(">From ") == std::string::npos) return;
    std::string out;
    from_unescaper unescape;
    unescape.feed(text, out);
    unescape.finish(out);
    text.swap(out);
}

}  // namespace urlsift::detail
