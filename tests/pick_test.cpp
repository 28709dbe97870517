// urlsift pick: the list and its filter, the keys, the text fitted to a
// row, the command that opens a URL, and the command-line cases that show
// no screen (nothing found, no terminal). The screen itself is driven
// through tmux in tests/packaging/pick_tmux.sh.

#include "cli/pick_actions.hpp"
#include "cli/pick_input.hpp"
#include "cli/pick_keys.hpp"
#include "cli/pick_list.hpp"
#include "cli/pick_text.hpp"
#include "cli_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace urlsift::cli;
using urlsift::test::run_cli;

namespace {

pick_list three() {
    pick_list list;
    list.add({"https://www.example.org/docs/", "See the docs at https://www.example.org/docs/ first.", 16});
    list.add({"ftp://ftp.gnu.org/gnu/", "Sources: ftp://ftp.gnu.org/gnu/", 9});
    list.add({"http://bugs.example.net/123", "Filed as http://bugs.example.net/123 (the Docs bug).", 9});
    return list;
}

std::vector<std::string> shown_urls(const pick_list& list) {
    std::vector<std::string> urls;
    for (std::size_t i = 0; i < list.shown_count(); ++i) urls.push_back(list.shown(i).url);
    return urls;
}

pick_key text_key(const char* s) { return {.what = pick_key::kind::text, .text = s}; }
pick_key key(pick_key::kind k) { return {.what = k, .text = {}}; }

}  // namespace

TEST_CASE("pick lists each URL once, with the context where it was first met", "[pick]") {
    pick_list list = three();
    CHECK_FALSE(list.add({"ftp://ftp.gnu.org/gnu/", "again ftp://ftp.gnu.org/gnu/", 6}));
    REQUIRE(list.items().size() == 3);
    CHECK(list.items()[1].context == "Sources: ftp://ftp.gnu.org/gnu/");
    CHECK(list.shown_count() == 3);
    REQUIRE(list.selected() != nullptr);
    CHECK(list.selected()->url == "https://www.example.org/docs/");
}

TEST_CASE("pick's filter keeps the items that have every word, case ignored", "[pick]") {
    pick_list list = three();
    list.set_query("EXAMPLE");
    CHECK(shown_urls(list) == std::vector<std::string>{"https://www.example.org/docs/", "http://bugs.example.net/123"});
    list.set_query("example docs");  // "docs" is in the second one's context only
    CHECK(shown_urls(list) == std::vector<std::string>{"https://www.example.org/docs/", "http://bugs.example.net/123"});
    list.set_query("example  net");
    CHECK(shown_urls(list) == std::vector<std::string>{"http://bugs.example.net/123"});
    list.set_query("sources");  // context only
    CHECK(shown_urls(list) == std::vector<std::string>{"ftp://ftp.gnu.org/gnu/"});
    list.set_query("nothing-like-this");
    CHECK(list.shown_count() == 0);
    CHECK(list.selected() == nullptr);
    list.set_query("");
    CHECK(list.shown_count() == 3);
    CHECK(matches({"http://x/", "", 0}, "   "));
}

TEST_CASE("pick's selection stays on its item while the filter allows", "[pick]") {
    pick_list list = three();
    list.move_by(2);
    CHECK(list.selected()->url == "http://bugs.example.net/123");
    list.set_query("example");
    CHECK(list.cursor() == 1);
    CHECK(list.selected()->url == "http://bugs.example.net/123");
    list.set_query("gnu");  // the selected item is gone: the first shown
    CHECK(list.selected()->url == "ftp://ftp.gnu.org/gnu/");
}

TEST_CASE("pick's selection moves and stops at the ends", "[pick]") {
    pick_list list;
    for (int i = 0; i < 10; ++i) list.add({"http://h/" + std::to_string(i), "", 0});
    list.move_by(-1);
    CHECK(list.cursor() == 0);
    list.move_by(4);
    CHECK(list.cursor() == 4);
    list.move_by(100);
    CHECK(list.cursor() == 9);
    list.move_to_first();
    CHECK(list.cursor() == 0);
    list.move_to_last();
    CHECK(list.cursor() == 9);

    // A window of 4 follows the cursor, moving as little as it can.
    list.move_to_first();
    CHECK(list.window_top(0, 4) == 0);
    list.move_by(5);
    CHECK(list.window_top(0, 4) == 2);
    list.move_by(-1);
    CHECK(list.window_top(2, 4) == 2);
    list.move_by(-3);
    CHECK(list.window_top(2, 4) == 1);
    // No empty rows at the bottom while items above are hidden.
    list.move_to_last();
    CHECK(list.window_top(8, 4) == 6);
    CHECK(list.window_top(0, 20) == 0);
}

TEST_CASE("pick's keys: list mode and filter mode", "[pick]") {
    pick_list list = three();
    pick_keys keys;
    using kind = pick_key::kind;
    CHECK(keys.handle(list, text_key("j"), 10) == pick_action::none);
    CHECK(keys.handle(list, key(kind::down), 10) == pick_action::none);
    CHECK(list.cursor() == 2);
    CHECK(keys.handle(list, text_key("k"), 10) == pick_action::none);
    CHECK(list.cursor() == 1);
    CHECK(keys.handle(list, key(kind::home), 10) == pick_action::none);
    CHECK(list.cursor() == 0);
    CHECK(keys.handle(list, key(kind::page_down), 2) == pick_action::none);
    CHECK(list.cursor() == 2);
    CHECK(keys.handle(list, text_key("G"), 2) == pick_action::none);
    CHECK(keys.handle(list, text_key("y"), 2) == pick_action::copy);
    CHECK(keys.handle(list, text_key("x"), 2) == pick_action::refuse);
    CHECK(keys.handle(list, key(kind::redraw), 2) == pick_action::redraw);

    // Typing after / filters at each key; Enter opens what is selected.
    CHECK(keys.handle(list, text_key("/"), 2) == pick_action::none);
    CHECK(keys.filtering());
    for (const char* c : {"g", "n", "u"}) keys.handle(list, text_key(c), 2);
    CHECK(list.query() == "gnu");
    CHECK(shown_urls(list) == std::vector<std::string>{"ftp://ftp.gnu.org/gnu/"});
    // j and q are text here, not moves.
    keys.handle(list, text_key("q"), 2);
    CHECK(list.shown_count() == 0);
    CHECK(keys.handle(list, key(kind::enter), 2) == pick_action::refuse);
    keys.handle(list, key(kind::backspace), 2);
    CHECK(list.query() == "gnu");
    CHECK(keys.handle(list, key(kind::enter), 2) == pick_action::open);
    CHECK(list.selected()->url == "ftp://ftp.gnu.org/gnu/");

    // Tab keeps the filter and goes back to the keys; Esc there quits.
    CHECK(keys.handle(list, key(kind::tab), 2) == pick_action::none);
    CHECK_FALSE(keys.filtering());
    CHECK(list.query() == "gnu");
    CHECK(keys.handle(list, text_key("q"), 2) == pick_action::quit);
    CHECK(keys.handle(list, key(kind::escape), 2) == pick_action::quit);

    // Esc in the filter clears it; Ctrl-U empties it; Backspace on an empty
    // filter leaves it; Ctrl-C quits from anywhere.
    keys.handle(list, text_key("/"), 2);
    keys.handle(list, text_key("\xC3\xA9"), 2);
    keys.handle(list, key(kind::backspace), 2);  // a whole character
    CHECK(list.query() == "gnu");
    keys.handle(list, key(kind::clear_line), 2);
    CHECK(list.query().empty());
    keys.handle(list, text_key("x"), 2);
    CHECK(keys.handle(list, key(kind::escape), 2) == pick_action::none);
    CHECK_FALSE(keys.filtering());
    CHECK(list.query().empty());
    CHECK(list.shown_count() == 3);
    keys.handle(list, text_key("/"), 2);
    keys.handle(list, key(kind::backspace), 2);
    CHECK_FALSE(keys.filtering());
    keys.handle(list, text_key("/"), 2);
    CHECK(keys.handle(list, key(kind::interrupt), 2) == pick_action::quit);
}

TEST_CASE("pick fits text to a row: columns, not bytes", "[pick]") {
    CHECK(display_width("abc") == 3);
    CHECK(display_width("caf\xC3\xA9") == 4);
    CHECK(display_width("\xE6\x97\xA5\xE6\x9C\xAC") == 4);  // two wide characters
    CHECK(display_width("e\xCC\x81") == 1);                 // a combining accent
    CHECK(fit_width("http://example.org/", 40) == "http://example.org/");
    CHECK(fit_width("http://example.org/", 10) == "http://ex\u2026");
    CHECK(fit_width("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 4) == "\xE6\x97\xA5\u2026");
    CHECK(fit_width("abc", 0).empty());
}

TEST_CASE("pick shortens a context line around its URL", "[pick]") {
    CHECK(shorten_context("  see\t\thttp://x/   now \r", 8, 40) == "see http://x/ now");
    // Control characters are shown, never sent to the terminal.
    CHECK(shorten_context("a\x1b[2Jb http://x/", 8, 40) == "a\\x1b[2Jb http://x/");
    // So are the characters that reorder a line or show as nothing.
    CHECK(shorten_context("\xE2\x80\xAE" "free http://x/ \xE2\x80\x8B", 8, 40) == "\\u202efree http://x/ \\u200b");
    const std::string line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, see http://example.org/page "
                             "for the rest of it, and more words after that.";
    const std::size_t focus = line.find("http");
    const std::string s = shorten_context(line, focus, 30);
    CHECK(display_width(s) <= 30);
    CHECK(s.rfind("\u2026", 0) == 0);        // cut at the start
    CHECK(s.find("http://example") != std::string::npos);
    CHECK(s.substr(s.size() - 3) == "\u2026");  // and at the end
    // A URL near the start: only the end is cut.
    const std::string start = shorten_context(line, 0, 20);
    CHECK(start == "Lorem ipsum dolor s\u2026");
    // Near the end: the window slides back to show the end whole.
    const std::string end = shorten_context(line, line.size() - 5, 20);
    CHECK(end == "\u2026e words after that.");
    CHECK(display_width(end) == 20);

    const std::string text = "one\ntwo http://x/\nthree";
    const line_position at = line_at(text, text.find("http"));
    CHECK(at.line == "two http://x/");
    CHECK(at.column == 4);
    CHECK(line_at(text, 0).line == "one");
    CHECK(line_at(text, text.size()).line == "three");
}

TEST_CASE("pick's commands: words as sh splits them, the URL one argv element", "[pick]") {
    std::string error;
    CHECK(split_command("firefox --new-tab", error) == std::vector<std::string>{"firefox", "--new-tab"});
    CHECK(split_command(R"(  'my browser' "a \"b\" c" d\ e  )", error) ==
          std::vector<std::string>{"my browser", "a \"b\" c", "d e"});
    CHECK_FALSE(split_command("open 'x", error));
    CHECK(error.find("unclosed") != std::string::npos);
    CHECK_FALSE(split_command("  ", error));

    const std::string url = "http://x/a;b&c=$(rm -rf ~)";
    CHECK(command_for({"xdg-open"}, url) == std::vector<std::string>{"xdg-open", url});
    CHECK(command_for({"lynx", "-accept_all_cookies", "%s"}, url) ==
          std::vector<std::string>{"lynx", "-accept_all_cookies", url});
    CHECK(command_for({"browser", "--url=%s", "100%%"}, "http://x/") ==
          std::vector<std::string>{"browser", "--url=http://x/", "100%"});

    CHECK(opener_commands(std::string("w3m"), "firefox") == std::vector<std::string>{"w3m"});
    CHECK(opener_commands(std::nullopt, "firefox:lynx %s::") == std::vector<std::string>{"firefox", "lynx %s"});
    CHECK(opener_commands(std::nullopt, nullptr) == std::vector<std::string>{"xdg-open"});
    CHECK(opener_commands(std::nullopt, "") == std::vector<std::string>{"xdg-open"});

    CHECK(safe_to_open("http://x/"));
    CHECK_FALSE(safe_to_open("--help"));
    CHECK_FALSE(safe_to_open(""));

    const run_result missing = run_command({"/nonexistent/urlsift-opener"}, -1);
    CHECK_FALSE(missing.started);
    CHECK_FALSE(missing.error.empty());
    const run_result ran = run_command({"sh", "-c", "exit 3"}, -1);
    CHECK(ran.started);
    CHECK(ran.status == 3);
}

TEST_CASE("pick copies with OSC 52: base64 between the OSC 52 prefix and BEL", "[pick]") {
    CHECK(osc52_copy("") == "\x1b]52;c;\a");
    CHECK(osc52_copy("f") == "\x1b]52;c;Zg==\a");
    CHECK(osc52_copy("fo") == "\x1b]52;c;Zm8=\a");
    CHECK(osc52_copy("foo") == "\x1b]52;c;Zm9v\a");
    CHECK(osc52_copy("http://x/") == "\x1b]52;c;aHR0cDovL3gv\a");
}

TEST_CASE("pick reads messages decoded and text as extract does", "[pick]") {
    const urlsift::test::scratch_dir dir;
    const auto msg = dir.path / "msg.eml";
    urlsift::test::write_file(msg, "From: a@example.org\r\n"
                                   "List-Unsubscribe: <https://lists.example.org/unsub>\r\n"
                                   "Content-Type: text/plain; charset=utf-8\r\n"
                                   "Content-Transfer-Encoding: quoted-printable\r\n"
                                   "\r\n"
                                   "Read https://www.example.org/a-very-long-path/that-is-=\r\n"
                                   "broken.html today, or www.w3.org/Addressing/.\r\n");
    pick_input_settings settings;
    pick_list list;
    std::string note;
    CHECK(read_pick_input(msg.string(), settings, list, note).empty());
    REQUIRE(list.items().size() == 2);
    CHECK(list.items()[0].url == "https://www.example.org/a-very-long-path/that-is-broken.html");
    CHECK(list.items()[0].context.find("Read https://") == 0);
    CHECK(list.items()[0].focus == 5);
    CHECK(list.items()[1].url == "http://www.w3.org/Addressing/");

    settings.headers = true;
    pick_list with_headers;
    CHECK(read_pick_input(msg.string(), settings, with_headers, note).empty());
    REQUIRE(with_headers.items().size() == 3);
    CHECK(with_headers.items()[0].url == "https://lists.example.org/unsub");
    CHECK(with_headers.items()[0].context == "List-Unsubscribe header");

    // As text, the quoted-printable soft break is not undone.
    settings.input = urlsift::cli::input_setting::text;
    pick_list as_text;
    CHECK(read_pick_input(msg.string(), settings, as_text, note).empty());
    REQUIRE_FALSE(as_text.items().empty());
    CHECK(as_text.items()[0].url != "https://www.example.org/a-very-long-path/that-is-broken.html");

    CHECK_FALSE(read_pick_input((dir.path / "missing").string(), settings, as_text, note).empty());
}

TEST_CASE("pick shows no screen when there is nothing to pick or no terminal", "[pick][cli]") {
    const auto none = run_cli("pick", "no links here\n");
    CHECK(none.status == 1);
    CHECK(none.err.find("no URLs found") != std::string::npos);

    // setsid: no controlling terminal, so no /dev/tty to draw on.
    const auto no_tty = run_cli("pick", "see http://example.org/\n", "TERM=xterm setsid -w");
    CHECK(no_tty.status == 2);
    CHECK(no_tty.err.find("needs a terminal") != std::string::npos);
    CHECK(no_tty.err.find("urlsift extract") != std::string::npos);
    CHECK(no_tty.out.empty());

    const auto dumb = run_cli("pick", "see http://example.org/\n", "TERM=dumb");
    CHECK(dumb.status == 2);
    CHECK(dumb.err.find("needs a terminal") != std::string::npos);

    const auto bad = run_cli("pick --input xml", "");
    CHECK(bad.status == 2);
    CHECK(bad.err.find("text, markdown, html, code, mail, mbox, auto") != std::string::npos);
    const auto unclosed = run_cli("pick --command \"'open\"", "");
    CHECK(unclosed.status == 2);
    CHECK(unclosed.err.find("unclosed") != std::string::npos);
}
