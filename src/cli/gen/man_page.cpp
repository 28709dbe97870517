#include "cli/gen/man_page.hpp"

#include <map>
#include <regex>
#include <sstream>

namespace urlsift::cli::gen {

namespace {

// Font marks, put in before escaping and made font escapes after it, so
// that escaping cannot touch them.
constexpr char bold = '\001', italic = '\002', roman = '\003';

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
    std::string out;
    for (std::size_t at; (at = s.find(from)) != std::string_view::npos; s.remove_prefix(at + from.size()))
        out.append(s.substr(0, at)).append(to);
    return out.append(s);
}

/// Escapes what roff would read as its own, then turns the font marks into
/// font escapes. A line must not start with a control character.
std::string roff(std::string_view text) {
    std::string s = replace_all(text, "\\", "\\e");
    // \- is the character a reader types; a plain - may print as a hyphen.
    s = replace_all(s, "-", "\\-");
    s = replace_all(s, "'", "\\(aq");
    s = replace_all(s, "`", "\\(ga");
    s = replace_all(s, "^", "\\(ha");
    s = replace_all(s, "~", "\\(ti");
    s = replace_all(s, std::string(1, bold), "\\fB");
    s = replace_all(s, std::string(1, italic), "\\fI");
    s = replace_all(s, std::string(1, roman), "\\fR");
    if (!s.empty() && (s[0] == '.' || s[0] == '\'')) s.insert(0, "\\&");
    return s;
}

std::string in_bold(std::string_view s) { return std::string(1, bold).append(s).append(1, roman); }
std::string in_italics(std::string_view s) { return std::string(1, italic).append(s).append(1, roman); }

/// Option names in prose in bold: --base, -n; not the hyphen in "utf-8", a
/// lone "--", or "-iSUFFIX".
std::string mark_options(std::string s) {
    static const std::regex option(R"((^|[ (\[])--?[A-Za-z0-9][-A-Za-z0-9]*)");
    std::string out;
    std::smatch m;
    while (std::regex_search(s, m, option)) {
        std::string word = m.str(0);
        std::string rest = m.suffix().str();
        std::string lead;
        if (word[0] != '-') {
            lead = word.substr(0, 1);
            word.erase(0, 1);
        }
        const bool long_option = word.size() > 2 && word[1] == '-' && std::isalpha(static_cast<unsigned char>(word[2]));
        const bool short_option = word.size() == 2 && (rest.empty() || !std::isalnum(static_cast<unsigned char>(rest[0])));
        out.append(m.prefix().str()).append(lead).append(long_option || short_option ? in_bold(word) : word);
        s = std::move(rest);
    }
    return out + s;
}

std::string text(std::string_view s) { return roff(mark_options(std::string(s))); }

/// FILE, DIR, REF ... are placeholders: italics.
std::string mark_capitals(std::string s) {
    static const std::regex capitals("[A-Z][A-Z]+");
    std::string out;
    std::smatch m;
    while (std::regex_search(s, m, capitals)) {
        out.append(m.prefix().str()).append(in_italics(m.str(0)));
        s = m.suffix().str();
    }
    return out + s;
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream in{std::string(s)};
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

/// Reads a help text into the sections of a page, line by line.
class help_reader {
public:
    help_reader(std::string_view command, const std::map<std::string, std::string, std::less<>>& summaries)
        : command_(command), summaries_(summaries) {}

    void line(std::string_view raw) {
        std::string_view line = raw;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
        if (line.empty()) {
            end_block();
            return;
        }
        indent_ = line.find_first_not_of(' ');
        const std::string_view t = line.substr(indent_);
        static const std::regex heading("[A-Z][A-Za-z ]*:");
        if (indent_ == 0) {
            if (t.starts_with("Usage: ")) {
                end_block();
                sect_ = "synopsis";
                add_synopsis(t.substr(7));
            } else if (std::regex_match(t.begin(), t.end(), heading)) {
                end_block();
                const std::string_view name = t.substr(0, t.size() - 1);
                if (name == "Options") sect_ = "options";
                else if (name == "Examples") sect_ = "examples";
                else if (name == "Commands") sect_ = "commands";
                else {
                    sect_ = "subs";
                    put(".SS \"" + std::string(name) + "\"");
                }
            } else if (t.starts_with("Exit status: ")) {
                end_block();
                sect_ = "exit";
                start_paragraph();
                put(text(t.substr(13)));
            } else {
                // Prose goes on in its paragraph (blank lines end one), or
                // starts one in DESCRIPTION.
                if (block_ != "para" || (sect_ != "desc" && sect_ != "exit")) {
                    end_block();
                    sect_ = "desc";
                    start_paragraph();
                }
                put(text(t));
            }
        } else if (sect_ == "synopsis") {
            add_synopsis(t);
        } else if (sect_ == "options") {
            // The option table gives OPTIONS.
        } else if (sect_ == "examples" && (t.starts_with("$ ") || block_ == "verbatim")) {
            verbatim_line(line);
        } else if (sect_ == "examples" && !(block_ == "row" && indent_ > item_indent_)) {
            example_entry(t);
        } else {
            indented_line(t);
        }
    }

    void finish() { end_block(); }
    const std::string& section(const std::string& name) { return sections_[name]; }
    const std::string& synopsis() const noexcept { return synopsis_; }

private:
    void put(std::string_view s) { sections_[sect_].append(s).append("\n"); }

    void end_block() {
        if (block_ == "verbatim") put(".EE");
        block_.clear();
    }

    void start_paragraph() {
        end_block();
        put(".PP");
        block_ = "para";
    }

    void indented_line(std::string_view t) {
        static const std::regex term_then_text("^[^ ]+  +");
        std::match_results<std::string_view::const_iterator> m;
        if (indent_ > item_indent_ && (block_ == "row" || block_ == "bullet")) {
            put(text(t));
        } else if (t.starts_with("- ")) {
            end_block();
            put(".IP \\(bu 2");
            put(text(t.substr(2)));
            block_ = "bullet";
            item_indent_ = indent_;
        } else if (std::regex_search(t.begin(), t.end(), m, term_then_text)) {
            end_block();
            std::string_view term = t.substr(0, static_cast<std::size_t>(m.length(0)));
            while (term.ends_with(' ')) term.remove_suffix(1);
            put(".TP");
            put(roff(in_bold(term)));
            put(text(t.substr(static_cast<std::size_t>(m.length(0)))));
            // A command's row points to its own page.
            if (sect_ == "commands" && summaries_.contains(term)) {
                put(".br");
                put(roff("See " + in_bold("urlsift-" + std::string(term)) + "(1)."));
            }
            block_ = "row";
            item_indent_ = indent_;
        } else {
            if (block_ != "indented") {
                end_block();
                put(".PP");
                block_ = "indented";
            }
            put(text(t));
        }
    }

    /// "urlsift extract -r -u docs/   what it does": the command in bold.
    void example_entry(std::string_view t) {
        end_block();
        const std::size_t gap = t.find("  ");
        const std::string_view cmd = t.substr(0, gap);
        std::string_view note;
        if (gap != std::string_view::npos) {
            note = t.substr(gap);
            note.remove_prefix(note.find_first_not_of(' '));
        }
        put(".TP");
        put(roff(in_bold(cmd)));
        put(note.empty() ? "\\&" : text(note));
        block_ = "row";
        item_indent_ = indent_;
    }

    /// A "$ command" and its output, as written, up to the next blank line.
    void verbatim_line(std::string_view line) {
        if (block_ != "verbatim") {
            end_block();
            put(".PP");
            put(".EX");
            block_ = "verbatim";
            verbatim_indent_ = indent_;
        }
        put(roff(line.substr(std::min(verbatim_indent_, line.size()))));
    }

    void add_synopsis(std::string_view s) {
        std::string out;
        for (const std::string& w : words(s)) {
            if (!out.empty()) out += ' ';
            const bool option = w.size() > 1 && w[0] == '-' &&
                                (std::isalpha(static_cast<unsigned char>(w[1])) ||
                                 (w[1] == '-' && w.size() > 2 && std::isalpha(static_cast<unsigned char>(w[2]))));
            if (w == "urlsift" || (!command_.empty() && w == command_) || option) out += in_bold(w);
            else out += mark_capitals(w);
        }
        synopsis_.append(roff(out)).append("\n.br\n");
    }

    std::string_view command_;
    const std::map<std::string, std::string, std::less<>>& summaries_;
    std::map<std::string, std::string> sections_;
    std::string synopsis_;
    std::string sect_ = "desc";
    std::string block_;
    std::size_t indent_ = 0;
    std::size_t item_indent_ = 0;
    std::size_t verbatim_indent_ = 0;
};

/// "-f, --format text|jsonl": the names in bold, the value in italics; a
/// short list of choices spelled out, else what the value stands for.
std::string option_names(const option_spec& o) {
    std::string out;
    if (o.short_name != 0) out.append(in_bold(std::string("-") + o.short_name)).append(", ");
    out.append(in_bold("--" + std::string(o.name)));
    if (o.value == value_kind::none) return out;
    std::string choices;
    for (const std::string_view c : o.choices) choices.append(choices.empty() ? "" : "|").append(in_italics(c));
    constexpr std::size_t most = 40; // with the font marks
    if (o.value == value_kind::choice && !choices.empty() && choices.size() <= most) return out + " " + choices;
    return out + " " + in_italics(value_name(o));
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::string man_page_name(const documented_command& d) {
    return d.command == nullptr ? "urlsift.1" : "urlsift-" + std::string(d.command->name) + ".1";
}

std::string man_page(const documented_command& d, const man_context& context) {
    std::map<std::string, std::string, std::less<>> summaries;
    for (const documented_command& c : *context.all)
        if (c.command != nullptr) summaries.emplace(c.command->name, c.command->summary);
    const std::string_view command = d.command == nullptr ? std::string_view() : d.command->name;
    const std::string name = d.command == nullptr ? "urlsift" : "urlsift-" + std::string(command);

    help_reader reader(command, summaries);
    std::string_view help = d.help;
    while (!help.empty()) {
        const std::size_t end = help.find('\n');
        reader.line(help.substr(0, end));
        help = end == std::string_view::npos ? std::string_view() : help.substr(end + 1);
    }
    reader.finish();

    std::string options;
    for (const option_spec* o : d.options) {
        std::string what(o->help);
        what.append(o->help_more);
        // The default from the table, unless the help says it.
        if (!o->default_value.empty() && what.find("default") == std::string::npos &&
            what.find("Default") == std::string::npos)
            what.append(" (default: ").append(o->default_value).append(")");
        options.append(".TP\n").append(roff(option_names(*o))).append("\n").append(text(what)).append("\n");
    }

    std::string page;
    page.append(".\\\" Made by urlsift-gen-docs from the option tables and help texts in src/cli/; edit those, "
                "not this page.\n");
    page.append(".TH ").append(roff(upper(name))).append(" 1 \"").append(context.date).append("\" \"urlsift ");
    page.append(context.version).append("\" \"User Commands\"\n");
    // URLs and option names must not be hyphenated, nor lines stretched
    // between them.
    page.append(".nh\n.ad l\n.SH NAME\n");
    page.append(roff(name)).append(" \\- ").append(roff(d.command == nullptr ? context.summary : d.command->summary));
    page.append("\n.SH SYNOPSIS\n").append(reader.synopsis());
    page.append(".SH DESCRIPTION\n").append(reader.section("desc")).append(reader.section("subs"));
    if (!reader.section("commands").empty()) page.append(".SH COMMANDS\n").append(reader.section("commands"));
    if (!options.empty()) page.append(".SH OPTIONS\n").append(options);
    if (!reader.section("exit").empty()) page.append(".SH \"EXIT STATUS\"\n").append(reader.section("exit"));
    if (!reader.section("examples").empty()) page.append(".SH EXAMPLES\n").append(reader.section("examples"));
    page.append(".SH \"SEE ALSO\"\n");
    std::vector<std::string> others;
    if (d.command != nullptr) others.emplace_back("urlsift");
    for (const documented_command& c : *context.all)
        if (c.command != nullptr && c.command != d.command) others.push_back("urlsift-" + std::string(c.command->name));
    for (std::size_t i = 0; i < others.size(); ++i)
        page.append(".BR ").append(roff(others[i])).append(" (1)").append(i + 1 == others.size() ? "\n" : ",\n");
    return page;
}

}  // namespace urlsift::cli::gen
