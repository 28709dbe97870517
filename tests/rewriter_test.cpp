// The rewriting filter: each kind of rewrite, losslessness, idempotence and
// independence from chunk boundaries.

#include "file_util.hpp"
#include "rewrite/edit_policy.hpp"
#include "scan_test_util.hpp"

#include <urlsift/rewriter.hpp>
#include <urlsift/warnings.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace urlsift;
using urlsift::test::read_file;

namespace {

rewrite_options with_base(std::string_view base) {
    rewrite_options o;
    o.base = *resolver::make(base);
    return o;
}

// Feeds `text` in the chunks `cuts` delimits, each an exact-size heap copy.
std::string rewrite_chunked(std::string_view text, const rewrite_options& options, std::vector<std::size_t> cuts) {
    std::string out;
    rewriter w(options, [&out](std::string_view s) {
        out += s;
        return true;
    });
    std::size_t from = 0;
    cuts.push_back(text.size());
    for (std::size_t to : cuts) {
        const std::string piece(text.substr(from, to - from));
        w.feed(piece);
        from = to;
    }
    w.finish();
    return out;
}

// Applies `edits` to `input`; the rewriter's output must be exactly this,
// which is what "lossless outside the rewritten spans" means.
std::string apply_edits(std::string_view input, const std::vector<rewrite_edit>& edits) {
    std::string out;
    std::uint64_t at = 0;
    for (const auto& e : edits) {
        REQUIRE(e.offset >= at);
        REQUIRE(e.offset + e.length <= input.size());
        out.append(input.substr(at, e.offset - at));
        out += e.replacement;
        at = e.offset + e.length;
    }
    out.append(input.substr(at));
    return out;
}

// Rewriting `text` gives `expected`, and rewriting that changes nothing.
void check_rewrite_settles(std::string_view text, const rewrite_options& options, std::string_view expected) {
    INFO("text: " << text);
    const std::string once = rewrite(text, options);
    CHECK(once == expected);
    CHECK(rewrite(once, options) == once);
}

struct traced {
    std::string out;
    std::vector<rewrite_edit> edits;
};

traced rewrite_traced(std::string_view text, const rewrite_options& options) {
    traced t;
    rewriter w(
        options,
        [&t](std::string_view s) {
            t.out += s;
            return true;
        },
        [&t](const rewrite_edit& e) { t.edits.push_back(e); });
    w.feed(text);
    w.finish();
    return t;
}

std::vector<std::filesystem::path> sample_texts() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(URLSIFT_SAMPLES_DIR))
        if (e.path().extension() == ".txt") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("the issue's example document is rewritten as documented", "[rewriter]") {
    const std::string doc = "See <../g> and <URL:g;x?y#s>, or www.w3.org/Addressing/ and\n"
                            "<http://www.ics.uci.edu/pub/\n"
                            " ietf/uri/historical.html#WARNING>.\n";
    CHECK(rewrite(doc, with_base("http://a/b/c/d;p?q")) ==
          "See <http://a/b/g> and <URL:http://a/b/c/g;x?y#s>, or http://www.w3.org/Addressing/ and\n"
          "<http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING>.\n");
}

TEST_CASE("each kind of rewrite, and what is left alone", "[rewriter]") {
    const auto base = with_base("http://a/b/c/d;p?q");
    SECTION("relative references need a base") {
        CHECK(rewrite("see <../g>.") == "see <../g>.");
        CHECK(rewrite("see <../g>.", base) == "see <http://a/b/g>.");
        CHECK(rewrite("URL: g?y", base) == "URL: http://a/b/c/g?y");
    }
    SECTION("a reference to the current document needs none (Section 4.2)") {
        CHECK(rewrite("see <#s>, <URL:#top> and <>.", base) == "see <#s>, <URL:#top> and <>.");
        CHECK(rewrite("see <?y#s>.", base) == "see <http://a/b/c/d;p?y#s>.");
    }
    SECTION("wrappers stay as written") {
        CHECK(rewrite("<URL: ../g>", base) == "<URL: http://a/b/g>");
        CHECK(rewrite("\"http://x.org/a\"", base) == "\"http://x.org/a\"");
    }
    SECTION("abbreviated URLs are completed") {
        CHECK(rewrite("Visit www.w3.org/Addressing/ today.") == "Visit http://www.w3.org/Addressing/ today.");
        CHECK(rewrite("files on ftp.example.org/pub, too") == "files on ftp://ftp.example.org/pub, too");
    }
    SECTION("references broken across lines are joined") {
        CHECK(rewrite("<http://example.org/a/\n   b/c.html>\n") == "<http://example.org/a/b/c.html>\n");
        CHECK(rewrite("<http://example.org/a/\r\n   b/c.html>\r\n") == "<http://example.org/a/b/c.html>\r\n");
    }
    SECTION("absolute URLs on one line are untouched, unless normalizing") {
        CHECK(rewrite("at HTTP://Example.ORG:80/%7efred now") == "at HTTP://Example.ORG:80/%7efred now");
        rewrite_options n;
        n.normalize = true;
        CHECK(rewrite("at HTTP://Example.ORG:80/%7efred now", n) == "at http://example.org/~fred now");
    }
    SECTION("--only limits what is rewritten") {
        auto only_joined = base;
        only_joined.only = static_cast<rewrite_set>(rewrite_kind::joined);
        CHECK(rewrite("<../g> www.w3.org/x <http://a/\n b>", only_joined) == "<../g> www.w3.org/x <http://a/b>");
        auto only_relative = base;
        only_relative.only = static_cast<rewrite_set>(rewrite_kind::relative);
        CHECK(rewrite("<../g> www.w3.org/x", only_relative) == "<http://a/b/g> www.w3.org/x");
    }
    SECTION("--style angle wraps bare URLs") {
        rewrite_options angle;
        angle.angle_style = true;
        CHECK(rewrite("see http://x.org/a and <http://y.org/> and www.w3.org/.", angle) ==
              "see <http://x.org/a> and <http://y.org/> and <http://www.w3.org/>.");
    }
}

TEST_CASE("parse_rewrite_list", "[rewriter]") {
    CHECK(parse_rewrite_list("all") == rewrite_all);
    CHECK(parse_rewrite_list("joined") == static_cast<rewrite_set>(rewrite_kind::joined));
    CHECK(parse_rewrite_list("relative,abbreviated") ==
          static_cast<rewrite_set>(static_cast<rewrite_set>(rewrite_kind::relative) |
                                   static_cast<rewrite_set>(rewrite_kind::abbreviated)));
    CHECK_FALSE(parse_rewrite_list("relative,").has_value());
    CHECK_FALSE(parse_rewrite_list("bogus").has_value());
    CHECK_FALSE(parse_rewrite_list("").has_value());
}

TEST_CASE("lossless: bytes outside the edits pass unchanged", "[rewriter][property]") {
    SECTION("text with nothing to rewrite comes out identical") {
        const std::string texts[] = {
            "",
            "no newline at the end",
            "CRLF lines\r\nand a lone CR\rhere\r\n",
            std::string("NUL\0bytes\0inside\n", 18),
            "invalid UTF-8: \xC3\x28 \xFF\xFE \xE2\x82 end\n",
            std::string(200000, 'x') + "\n" + std::string(100000, ' '),
            "Re: Note: 10:30 e.g. i.e. version 1.2.3 of README.md and node.js\n",
        };
        for (const auto& t : texts) {
            INFO("text of " << t.size() << " bytes");
            CHECK(rewrite(t) == t);
        }
    }
    SECTION("random bytes: output is the input with the reported edits applied") {
        std::mt19937 rng(7);
        constexpr std::string_view alphabet = "ab.:/<>\"@ \n\r\t-wWURL?#%\x00\xC3\xA9\xFF";
        std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
        std::uniform_int_distribution<int> byte(0, 255);
        for (int round = 0; round < 300; ++round) {
            std::string input;
            const bool from_alphabet = round % 2 == 0;
            for (int i = 0; i < 400; ++i)
                input += from_alphabet ? alphabet[pick(rng)] : static_cast<char>(byte(rng));
            const auto t = rewrite_traced(input, with_base("http://a/b/c/d;p?q"));
            REQUIRE(t.out == apply_edits(input, t.edits));
        }
    }
}

TEST_CASE("the output does not depend on chunk boundaries", "[rewriter][chunks]") {
    const std::string doc = "See <../g> and <URL:g;x?y#s>, or www.w3.org/Addressing/ and\n"
                            "<http://www.ics.uci.edu/pub/\r\n ietf/uri/historical-\n notes.html#WARNING>.\n"
                            "Bare http://example.org/x. \xFF\xC3 <mail@example.org>\n";
    const auto options = with_base("http://a/b/c/d;p?q");
    const std::string whole = rewrite(doc, options);
    for (std::size_t cut = 1; cut < doc.size(); ++cut) {
        INFO("split at " << cut);
        REQUIRE(rewrite_chunked(doc, options, {cut}) == whole);
    }
    std::vector<std::size_t> every;
    for (std::size_t i = 1; i < doc.size(); ++i) every.push_back(i);
    CHECK(rewrite_chunked(doc, options, every) == whole);
}

TEST_CASE("idempotent over every sample", "[rewriter][samples]") {
    const auto options = with_base("https://docs.example.org/guide/install/");
    for (const auto& path : sample_texts()) {
        DYNAMIC_SECTION(path.filename().string()) {
            const std::string once = rewrite(read_file(path), options);
            CHECK(rewrite(once, options) == once);
        }
    }
}

TEST_CASE("idempotent over the conformance texts", "[rewriter][conformance]") {
    const std::filesystem::path dir = URLSIFT_SHARED_DIR "/conformance/extract";
    if (!std::filesystem::exists(dir)) {
        WARN("conformance data not found at " << dir << "; skipped");
        return;
    }
    const auto options = with_base("http://a/b/c/d;p?q");
    std::size_t checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".jsonl") continue;
        // Each line is a JSON object; the whole line is a fine text to rewrite
        // too, and avoids depending on a JSON reader here.
        std::istringstream lines(read_file(entry.path()));
        for (std::string line; std::getline(lines, line); ++checked) {
            const std::string once = rewrite(line, options);
            INFO(entry.path().filename().string() << ": " << line);
            REQUIRE(rewrite(once, options) == once);
        }
    }
    CHECK(checked > 1000);
}

TEST_CASE("the relative-links sample rewrites to its expected form", "[rewriter][samples]") {
    const std::filesystem::path dir = URLSIFT_SAMPLES_DIR;
    std::string base = read_file(dir / "relative-doc.base");
    while (!base.empty() && (base.back() == '\n' || base.back() == '\r')) base.pop_back();
    const std::string input = read_file(dir / "relative-doc.txt");
    const std::string expected = read_file(dir / "relative-doc.rewritten");
    auto options = with_base(base);
    // As the CLI does by default: mail addresses are not turned into mailto: links.
    options.scan.abbrev.kinds = abbrev_default & ~static_cast<abbrev_set>(abbrev_kind::email);
    CHECK(rewrite(input, options) == expected);
    CHECK(rewrite_chunked(input, options, {1, 100, 101, 777, 1200}) == expected);
}

TEST_CASE("regression: a change log's file list stays a list once a name in it is rewritten", "[rewriter][regression]") {
    // `foo.com` names a file in the entry; `www.example.org/x` before it
    // (a service prefix) is completed, and a second pass must still read
    // the list as one.
    for (const bool angle_style : {false, true}) {
        rewrite_options options;
        options.angle_style = angle_style;
        const std::string text = "\t* www.example.org/x, foo.com: Update.\n";
        const std::string once = rewrite(text, options);
        CHECK(once != text);
        CHECK(once.find("foo.com: Update.") != std::string::npos);
        CHECK(once.find("http://foo.com") == std::string::npos);
        CHECK(rewrite(once, options) == once);
    }
}

TEST_CASE("regression: --style angle leaves a URL glued to a word unwrapped", "[rewriter][regression]") {
    // The scanner reads `fhttp://aq/` as `http://aq/`; a `<` put before it
    // would split the word and change how the text reads on a second pass.
    rewrite_options angle;
    angle.angle_style = true;
    const std::string text = "at <mirrwww.example.org/fhttp://aq/ and (http://b.example/x)\n";
    check_rewrite_settles(text, angle, "at <mirrwww.example.org/fhttp://aq/ and (<http://b.example/x>)\n");
    // Nor one glued to what follows: a `>` before `<timbl@...>` would make
    // that address stand apart, and a second pass would complete it.
    angle.scan.abbrev.kinds = abbrev_all;
    const std::string glued = "on\nftp://info.cern.ch/pub/ww<timbl@info.cern.ch>\n";
    CHECK(rewrite(glued, angle) == glued);
}

TEST_CASE("regression: a URL inside a < too long to be a wrapper is left alone", "[rewriter][regression]") {
    // The bracket's content is longer than the limit only because of the
    // line breaks in it; joining part of it in a first pass would make it
    // short enough to be a wrapper in the second.
    rewrite_options o;
    o.scan.max_url_length = 64;
    const std::string text = "      <URL:http://www.w3.org/pub/WWW/Addressing/\n           URL/5_BNF.htm \n l>\n";
    check_rewrite_settles(text, o, text);
}

TEST_CASE("regression: a line starting with an abbreviated URL does not continue the one before",
          "[rewriter][scanner][regression]") {
    // Completing `example.com/page` writes `http://` in front of it, and a
    // line starting with a scheme URL never continues the previous one; so
    // the first pass must not read it as a continuation either.
    const std::string text = "see http://www.example.org/docs/\nexample.com/page.html is another\n";
    const auto refs = scan(text);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].url == "http://www.example.org/docs/");
    CHECK(refs[1].url == "http://example.com/page.html");
    const std::string once = rewrite(text);
    CHECK(once == "see http://www.example.org/docs/\nhttp://example.com/page.html is another\n");
    CHECK(rewrite(once) == once);
}

TEST_CASE("regression: a URL joined inside brackets that hold a space is left alone", "[rewriter][regression]") {
    // `<ht./tp://x/\n ietf/y>` holds a line break, so it is no wrapper and
    // the URL inside it is bare; joining it would make the brackets a
    // wrapper of a relative reference on the next pass.
    rewrite_options o;
    o.base = *resolver::make("http://a/b/c/d;p?q");
    const std::string text = "and\n<ht./tp://www.ics.uftp.du/pub/\n ietf/uri/hiARNING>.\n";
    check_rewrite_settles(text, o, text);
}

TEST_CASE("regression: a next line holding the start of a mailto: URL does not continue a URL",
          "[rewriter][scanner][regression]") {
    // `mailto:` cut out of the end of `URLsmailto:` is the word's tail, not
    // a URL (a registered scheme inside a word counts only before `//`).
    // Were it one, joining it would make the word look like URL text, and a
    // second pass must not continue `b.edu/pub/` onto that line either way.
    const std::string text = "and b.edu/pub/\nURLsmailto:i-\n ngtes.html#Wtes.html#WARNING\n";
    const auto refs = scan(text);
    REQUIRE(refs.size() == 1);
    CHECK(refs[0].url == "http://b.edu/pub/");
    const std::string glued = "and b.edu/pub/\nURLs_http://i-\n ngtes.html#Wtes.html#WARNING\n";
    CHECK(rewrite(rewrite(glued)) == rewrite(glued));
    const std::string once = rewrite(text);
    CHECK(rewrite(once) == once);
}

TEST_CASE("regression: a reference is not joined across lines of different quote depth",
          "[rewriter][regression]") {
    // Joining `<URL:../d/\nx.txt>` would move the rest of the unquoted line
    // onto the quoted one, where `www.example.org/p/` no longer continues
    // onto the next line (it did, up to the `>`, so it was left alone): a
    // second pass would complete it. Lines quoted alike are still joined.
    const auto o = with_base("http://a/b/c/d;p?q");
    const std::string text = "> the draft is at <URL:../d/\nx.txt>; see www.example.org/p/\nq/r> for more\n"
                             "> and <URL:../e/\n> y.txt>\n";
    const std::string once = rewrite(text, o);
    CHECK(once == "> the draft is at <URL:../d/\nx.txt>; see www.example.org/p/\nq/r> for more\n"
                  "> and <URL:http://a/b/e/y.txt>\n");
    CHECK(rewrite(once, o) == once);
    CHECK(rewrite_chunked(text, o, {1, 20, 21, 40, 60}) == once);
}

TEST_CASE("regression: a reference inside brackets that are no wrapper yet is left alone",
          "[rewriter][regression]") {
    // `<name at example.org/guide/install now>` holds spaces, so it is no
    // wrapper; completing the URL inside would write `http:` into it, and a
    // second pass would read `namea...http://...` as a wrapped scheme URL.
    const auto o = with_base("http://a/b/c/d;p?q");
    const std::string text = "Use <name at example.org/guide/install now>.\n"
                             "Or <name at\nexample.org/guide/install now>.\n";
    CHECK(rewrite(text, o) == text);
    // Brackets that nothing can make a wrapper (no `>` before another `<`,
    // a blank line or the end) leave the URLs after the `<` to be rewritten.
    const std::string open = "if a <b see example.org/guide/install <i>\nand x<y www.example.org/a\n\nz>\n";
    check_rewrite_settles(open, o,
                          "if a <b see http://example.org/guide/install <i>\nand x<y http://www.example.org/a\n\nz>\n");
}

TEST_CASE("regression: brackets ruled out by invalid UTF-8 do not hold the references after them",
          "[rewriter][chunks][regression]") {
    // The scanner gives up on `<ab\x82` at the invalid byte, before the
    // rest of the text arrives; whether the URL after it is rewritten must
    // be decided from the same bytes, or it would depend on the chunks.
    const std::string text = "see <ab\x82 www.example.org/x and \x01 y>\n";
    const std::string once = rewrite(text);
    CHECK(once == "see <ab\x82 http://www.example.org/x and \x01 y>\n");
    std::vector<std::size_t> every_byte;
    for (std::size_t i = 1; i < text.size(); ++i) every_byte.push_back(i);
    CHECK(rewrite_chunked(text, {}, every_byte) == once);
    CHECK(rewrite(once) == once);
}

TEST_CASE("regression: --style angle leaves a URL after a bracket glued to a word unwrapped",
          "[rewriter][regression]") {
    // `www.example.org/f[http://aq/` is one word, from which the scanner
    // reports the scheme URL only; a `<` after the `[` would leave
    // `www.example.org/f[` to be read, and completed, on its own.
    rewrite_options angle;
    angle.angle_style = true;
    const std::string text = "at www.example.org/f[http://aq/ and ([http://b.example/x])\n";
    check_rewrite_settles(text, angle, "at www.example.org/f[http://aq/ and ([<http://b.example/x>])\n");
}

TEST_CASE("regression: --style angle leaves a URL ended by an opening square bracket unwrapped", "[rewriter][regression]") {
    // The scanner ends `http://www.[acl.example/URI/` at the `[` and reads
    // the rest as link text; `<http://www>.[` would leave `acl.example/URI/`
    // to be read, and completed, on a second pass.
    rewrite_options angle;
    angle.angle_style = true;
    angle.scan.abbrev.kinds = abbrev_all;
    const std::string text = ">> The list archive is at http://www.[acl.example/URI/archive and http://b.example/.\n";
    check_rewrite_settles(text, angle,
                          ">> The list archive is at http://www.[acl.example/URI/archive and <http://b.example/>.\n");
}

TEST_CASE("regression: a reference after two URL: prefixes reads the same once resolved", "[rewriter][regression]") {
    // `URL:  URL:../g` resolved to `URL:  URL:http://a/b/g`: the second
    // prefix is the one that marks it, before and after.
    const auto o = with_base("http://a/b/c/d;p?q");
    check_rewrite_settles("x URL:  URL:../g y\n", o, "x URL:  URL:http://a/b/g y\n");
}

TEST_CASE("regression: joining does not write a URL: prefix into brackets", "[rewriter][regression]") {
    // `<U\nRL://x.example/a>` reads as the scheme URL `URL://x.example/a`;
    // joined, its `URL:` would be taken for Appendix E's prefix next time,
    // and `//x.example/a` resolved against the base.
    const auto o = with_base("http://a/b/c/d;p?q");
    const std::string text = "See <U\nRL://x.example/a> now\n";
    CHECK(rewrite(text, o) == text);
    CHECK(rewrite(text) == text);
}

TEST_CASE("regression: a line starting with a mark and an abbreviated URL does not continue the one before",
          "[rewriter][scanner][regression]") {
    // The scanner reads `~example.com/...` as `example.com/...` after a
    // `~`; joined to the line before, the URL is too long to be an
    // abbreviation, so the next line is read on its own and completed, and
    // the `http://` that writes must not make a second pass read it apart.
    rewrite_options o;
    o.scan.max_url_length = 64;
    const std::string text = "read docs.example.org/guide/chapter-\n~example.com/reference/page-one/section-two.html now\n";
    check_rewrite_settles(text, o,
                          "read http://docs.example.org/guide/chapter-\n"
                          "~http://example.com/reference/page-one/section-two.html now\n");
}

TEST_CASE("regression: a next line starting with an abbreviated URL and a possessive does not continue a URL",
          "[rewriter][scanner][regression]") {
    // The scanner completes `example.com's` as `example.com` (the
    // possessive is not part of it), so the line starts with an
    // abbreviated URL and does not continue the one before; read as a
    // continuation instead, the joined URL could grow past the length
    // limit, and once the next line had been completed the second pass
    // would read the first line's URL on its own.
    const std::string text = "read docs.example.org/guide/chapter-\nexample.com's page is next\n";
    const auto refs = scan(text);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].url == "http://docs.example.org/guide/chapter-");
    CHECK(refs[1].url == "http://example.com");
    const std::string once = rewrite(text);
    CHECK(once == "read http://docs.example.org/guide/chapter-\nhttp://example.com's page is next\n");
    CHECK(rewrite(once) == once);

    rewrite_options o = with_base("http://a/b/c/d;p?q");
    o.scan.max_url_length = 64;
    o.scan.abbrev.kinds = abbrev_all;
    const std::string shape = "neither is the maintainer.example.org/pub/ietf/uri/draft-fielding-url-\n"
                              "      syntax-02.tr's address\n";
    check_rewrite_settles(shape, o,
                          "neither is the http://maintainer.example.org/pub/ietf/uri/draft-fielding-url-\n"
                          "      http://syntax-02.tr's address\n");
}

TEST_CASE("regression: a line of a URL too long to be an abbreviation is not completed on its own",
          "[rewriter][scanner][regression]") {
    // Read across its three lines, the abbreviated URL is longer than the
    // limit, so the lines are read on their own and the last two complete
    // (`URLs.example.` + `net/rfc/x`). Completing them would write `http://`
    // at the start of the second line, which ends the broken URL after its
    // first line next time: short enough then, and read differently.
    rewrite_options o;
    o.scan.max_url_length = 64;
    o.scan.abbrev.kinds = abbrev_all;
    const std::string text = "s.uci.edu/pub/ietf/uri/archive/draft-fielding-url-\nURLs.example.\nnet/rfc/x\n";
    auto with_around = o.scan;
    with_around.surroundings = true;
    const auto refs = scan(text, with_around);
    REQUIRE(refs.size() == 1);
    CHECK(refs[0].url == "http://URLs.example.net/rfc/x");
    CHECK(refs[0].around.in_longer_reading);
    CHECK(rewrite(text, o) == text);
}

TEST_CASE("regression: a reference ending a line keeps the character a continuation is judged by",
          "[rewriter][chunks][regression]") {
    // `URL:.` does not go on to `Next/page` (after a period only a lower-case
    // start continues); resolved to `http://a/b/c/` it would, after the `/`.
    // So where a line break follows, the reference is left as written, and
    // where other text follows on the line, it is rewritten.
    auto o = with_base("http://a/b/c/d;p?q");
    const std::string text = "See URL:.\nNext/page here, or URL:. there, and http://Example.com \n"
                             "next/x but http://Example.com too\n";
    const std::string expected = "See URL:.\nNext/page here, or URL:http://a/b/c/ there, and http://Example.com \n"
                                 "next/x but http://example.com/ too\n";
    o.normalize = true;
    check_rewrite_settles(text, o, expected);
    std::vector<std::size_t> every_byte;
    for (std::size_t i = 1; i < text.size(); ++i) every_byte.push_back(i);
    CHECK(rewrite_chunked(text, o, every_byte) == expected);
}

TEST_CASE("regression: what follows a closing quote does not decide a rewrite", "[rewriter][chunks][regression]") {
    // The scanner reports `www.example.org/a` once it has seen the `"` that
    // ends the word; whether a `>` comes after that quote must not matter,
    // or the output would depend on where the chunks end.
    const std::string text = "or www.example.org/a\">. and www.example.org/b.>\n";
    const std::string expected = "or http://www.example.org/a\">. and www.example.org/b.>\n";
    CHECK(rewrite(text) == expected);
    std::vector<std::size_t> every_byte;
    for (std::size_t i = 1; i < text.size(); ++i) every_byte.push_back(i);
    CHECK(rewrite_chunked(text, {}, every_byte) == expected);
    CHECK(rewrite(expected) == expected);
}

TEST_CASE("regression: --normalize writes a completed URL in normal form", "[rewriter][regression]") {
    // Completing `WWW.Example.COM/a` without normalizing it left work for
    // the next pass, which normalized the host: not idempotent.
    rewrite_options o;
    o.normalize = true;
    check_rewrite_settles("See WWW.Example.COM/a today.\n", o, "See http://www.example.com/a today.\n");
}

TEST_CASE("regression: a site before 'at' is judged the same before and after it is completed", "[rewriter][regression]") {
    // `jdoe at example.edu` spells out an address, so its host is no site.
    // A first word the rewrite completes is a site, not a mailbox: were it
    // taken for one, the host after it would be completed only on the
    // second pass, once the first word holds a `:`.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    check_rewrite_settles("Mirrors: WWW.Example.COM/a at ftp2.Example.ORG:21/x\n", o,
                          "Mirrors: http://WWW.Example.COM/a at http://ftp2.Example.ORG:21/x\n");
    const std::string address = "Mail j.doe at example.edu today.\n";
    CHECK(rewrite(address, o) == address);
    // A first word the scanner reads in part as a URL makes no address.
    // The URL on the line before does not go on onto a word `at` follows,
    // and that word, starting its line, is the address's local part.
    const std::pair<std::string, std::string> cases[] = {
        {"See \x9a\xd1\xbaxample.COM/a at mirror.example.org/x\n", "http://mirror.example.org/x"},
        {"See http://example.org/pub/\nj.doe at example.edu\n", "pub/\nj.doe at example.edu"},
    };
    for (const auto& [text, host] : cases) {
        const std::string first = rewrite(text, o);
        CHECK(first.find(host) != std::string::npos);
        CHECK(rewrite(first, o) == first);
    }
}

TEST_CASE("regression: a name glued to a word longer than the context is left alone twice", "[rewriter][regression]") {
    // The text before `g.co` is one word of more than the 64 bytes kept:
    // it must still end in the `.` that glues the name to it, on the first
    // pass and on the second, when a longer URL has made the line longer.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    for (const std::string& text : {"(" + std::string(70, '%') + ").g.co\n", "<" + std::string(70, '-') + ">.g.co\n"}) {
        CHECK(rewrite(text, o) == text);
        CHECK(urlsift::test::urls_of(text, o.scan).empty());
    }
}

TEST_CASE("regression: a join that would not read as one URL on one line is left as written", "[rewriter][regression]") {
    // Across lines the `[` on the second line opened no link text; joined,
    // it would end the URL there on the next pass.
    rewrite_options o;
    o.normalize = true;
    const std::string text = "see http://o.example/g/e.org/\nhtt[::1]p:/g/B\xC3\xBC" "c[er.EXAMP.EoLrg.\nhttp:/g/ now\n";
    const std::string once = rewrite(text, o);
    CHECK(rewrite(once, o) == once);
    // A completed word that ends in `[`: the written URL would drop it.
    o.scan.abbrev.kinds = abbrev_all;
    const std::string word = "see UExample.NET:80/%7e[\n";
    CHECK(rewrite(rewrite(word, o), o) == rewrite(word, o));
}

TEST_CASE("regression: --style angle wraps only URLs it makes or finds absolute", "[rewriter][regression]") {
    // With abbreviations left alone, `<www.example.org/x>` would be a
    // relative reference in brackets, which the next pass resolves.
    rewrite_options o = with_base("http://a/b/c");
    o.angle_style = true;
    o.only = static_cast<rewrite_set>(rewrite_kind::relative);
    const std::string text = "See www.example.org/x today, or http://example.net/y.\n";
    check_rewrite_settles(text, o, "See www.example.org/x today, or <http://example.net/y>.\n");
    o.only = rewrite_all;
    CHECK(rewrite(text, o) == "See <http://www.example.org/x> today, or <http://example.net/y>.\n");
}

TEST_CASE("regression: joining lines never writes a script URL", "[rewriter][regression]") {
    // Appendix E joins what a line break split; here that would assemble
    // `javascript:` out of two harmless lines.
    const std::string text = "<URL: java\n script:alert(1)>\nand <java\nscript:alert(2)>\n";
    CHECK(rewrite(text) == text);
    CHECK(rewrite(text, with_base("http://a/b/c")) == text);
    // The reference is still reported, with its warning.
    const auto refs = scan(text);
    REQUIRE(!refs.empty());
    CHECK(refs[0].url == "javascript:alert(1)");
    CHECK(is_script_url(refs[0].url));
}

TEST_CASE("regression: --normalize leaves a URL whose normal form would read differently", "[rewriter][regression]") {
    // Section 6 decodes `%2e` in the host to `.`; the scanner does not read
    // `https://./...` as a URL, so the next pass found the one inside it.
    rewrite_options o;
    o.normalize = true;
    const std::string text = "bhttps://%2e/R2xeRhttps://gReferenceternic.net/ and WWW.Example.COM/a\n";
    check_rewrite_settles(text, o, "bhttps://%2e/R2xeRhttps://gReferenceternic.net/ and http://www.example.com/a\n");
}

TEST_CASE("regression: a completed URL gets the canonical form a written one gets", "[rewriter][regression]") {
    // In the browser mode `\` is `/`. The completed `example.org/a\` was
    // written as completed, and the next pass, reading it as a URL written
    // out in full, canonicalized it.
    rewrite_options o;
    o.base = *resolver::make("http://a/b/", {.mode = resolve_mode::browser});
    const std::string text = "see example.org/guide\\ and http://example.net/x\\y\n";
    const std::string once = rewrite(text, o);
    CHECK(rewrite(once, o) == once);
    const auto refs = scan(text, {}, &*o.base);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].url == "http://example.org/guide/");
    CHECK(refs[1].url == "http://example.net/x/y");
}

TEST_CASE("regression: blanks are not joined into a scheme inside brackets", "[rewriter][regression]") {
    // `<URL:J ://d>` was joined to `<URL:J://d>` as a relative reference;
    // the next pass read an absolute URL there and normalized its scheme.
    rewrite_options o;
    o.normalize = true;
    for (const std::string text : {"<URL:J ://d>\n", "see <URL:HTTP ://Example.com/a> here\n"}) {
        CAPTURE(text);
        check_rewrite_settles(text, o, text);
    }
    // A line break inside the scheme is a URL broken across lines (Appendix E).
    CHECK(rewrite("<URL:HT\nTP://Example.com/a>\n", o) == "<URL:http://example.com/a>\n");
}

TEST_CASE("regression: a URL broken onto a line, and what follows it there, read the same next time", "[rewriter][regression]") {
    // `Se.ee/&-` was continued onto `S` because of what the rest of the
    // second line held; completing `c.ee` there made the next pass end the
    // first URL at the line break and complete it: not idempotent. With the
    // hyphen dropped, the joined URL is `se.ee/&S`, completed and joined in
    // the same pass as `c.ee`, and the next pass reads the text as written.
    rewrite_options o;
    o.base = *resolver::make("https://example.org/docs/", {.mode = resolve_mode::rfc3986, .normalize = true});
    o.normalize = true;
    o.angle_style = true;
    o.scan.abbrev.kinds = abbrev_all;
    o.scan.abbrev.https = true;
    o.scan.hyphen = hyphen_policy::drop;
    o.only = static_cast<rewrite_set>(rewrite_all & ~static_cast<rewrite_set>(rewrite_kind::relative));
    o.scan.max_url_length = 10;
    const std::string text = "Se.ee/&-\nS]c.ee";
    const std::string once = rewrite(text, o);
    // The first URL stays unwrapped: the `]` after it is glued to the next.
    CHECK(once == "https://se.ee/&S]https://c.ee/");
    CHECK(rewrite(once, o) == once);
}

TEST_CASE("regression: the end of a URL is no word that cues the address after it", "[rewriter][regression]") {
    // `ws://ID f@x.gm`: `ID` was read as the word before the address (the
    // "id" rule: a message ID, not a mailbox), until --normalize made the
    // URL `ws://id/`; the next pass then completed the address.
    rewrite_options o;
    o.normalize = true;
    o.scan.abbrev.kinds = abbrev_all;
    check_rewrite_settles("\nws://ID f@x.gm", o, "\nws://id/ mailto:f@x.gm");
}

TEST_CASE("rewrite reads a name of a URL given just before as extract used to", "[rewriter][regression]") {
    // Extract leaves out `ftp.xemacs.org/pub/xemacs/` after the URL it
    // names; rewrite does not, because what one pass completes or resolves
    // would be such a URL on the next pass. Found by fuzzing: `<p://l.gov>`
    // made by --style angle, and a join whose reading decided `<.>`.
    const std::string text = "the directory at ftp://ftp.xemacs.org/pub/xemacs/. It\n"
                             "will be saved locally under ftp.xemacs.org/pub/xemacs/.\n";
    const std::string once = rewrite(text);
    CHECK(once == "the directory at ftp://ftp.xemacs.org/pub/xemacs/. It\n"
                  "will be saved locally under ftp://ftp.xemacs.org/pub/xemacs/.\n");
    CHECK(rewrite(once) == once);
    rewrite_options angle;
    angle.angle_style = true;
    angle.scan.abbrev.kinds = abbrev_all;
    const std::string wrapped = rewrite("see p://l.gov l.gov\n", angle);
    CHECK(rewrite(wrapped, angle) == wrapped);
    rewrite_options o = with_base("http://a/b/c/d;p?q");
    o.angle_style = true;
    o.scan.abbrev.kinds = abbrev_all;
    o.scan.max_url_length = 76;
    const std::string joined = rewrite("s.uciinternac.net/<s.uciinternac.\nnet/<.>.>>.>", o);
    CHECK(rewrite(joined, o) == joined);
}

TEST_CASE("regression: a name completed before a glued < leaves the < glued", "[rewriter][regression]") {
    // `atnews.example.ne<../relez>`: the `<` glued to a word opens no
    // wrapper. Completed and normalized, the name ends in `/`, and the `<`
    // after it must still open none, or the next pass resolves `../relez`.
    rewrite_options o = with_base("https://example.org/docs/");
    o.normalize = true;
    o.scan.abbrev.kinds = abbrev_all;
    check_rewrite_settles("See atnews.example.ne<../relez> or the rest.\n", o,
                          "See http://atnews.example.ne/<../relez> or the rest.\n");
    // A path glued to brackets holds a placeholder, not a wrapper.
    CHECK(rewrite("Headers go in include/<name.h> now.\n", o) == "Headers go in include/<name.h> now.\n");
}

TEST_CASE("regression: a word with a dot after a dash is no option, so it does not hide the brackets after it",
          "[rewriter][regression]") {
    // `-aaaa\x93aa.org/a<a`: read as an option, whose argument the
    // brackets after it would name, it hid `<.>` until the host in it was
    // completed, so the next pass rewrote what the first had left.
    rewrite_options o = with_base("http://a/b/c/d;p?q");
    o.scan.abbrev.kinds = abbrev_all;
    o.angle_style = true;
    check_rewrite_settles("-aaaa\x93" "aa.org/a<a <.>", o, "-aaaa\x93" "http://aa.org/a<a <http://a/b/c/>");
    check_rewrite_settles("-aaaa\x93" "aa.org/a <.>", o, "-aaaa\x93" "http://aa.org/a <http://a/b/c/>");
    // An option's argument stays a placeholder, the option's value or not.
    for (const std::string text : {"run tmux -S <tmp.tms> or --debug-file <x.txt>", "test <cond> -a/-o <cond>",
                                   "aplay -D\"plug:'dmix:RATE=44100'\" <filename>"})
        CHECK(rewrite(text, o) == text);
}

TEST_CASE("rewriter: the check that an edit reads back as one URL starts afresh for each text", "[rewriter]") {
    // One scanner reads every text the edit policy checks; what it read
    // before, and a read it stopped at a second reference, must not carry.
    const urlsift::scan_options options;
    urlsift::detail::lone_reading check(options);
    CHECK_FALSE(check.reads_as_one("http://a.example/x http://b.example/y"));
    CHECK(check.reads_as_one("http://a.example/x"));
    CHECK_FALSE(check.reads_as_one("see http://a.example/x"));  // not all of it
    CHECK(check.reads_as_one("http://b.example/y"));             // named again: still read
    CHECK_FALSE(check.reads_as_one("no link here"));
    CHECK(check.reads_as_one("http://www.example.org/a/b"));
    // The same answers as a scanner made for each text.
    for (const std::string text :
         {"http://x.example/[a", "http://x.example/a,b", "URL:http://x.example/", "<http://x.example/>"}) {
        CAPTURE(text);
        const auto refs = urlsift::scan(text, options);
        const bool one = refs.size() == 1 && refs.front().offset == 0 && refs.front().length == text.size();
        CHECK(check.reads_as_one(text) == one);
    }
}

TEST_CASE("regression: what a URL's letters say does not change when the URL is normalized", "[rewriter][regression]") {
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    o.normalize = true;
    // `FAIL://t` starts a URL, no DejaGnu result field; `e-id` is in a
    // URL, no Message-ID cue. Read so, each pass reads the same: the
    // first pass lower-cases the scheme and adds the path's slash.
    for (const std::string& text : {std::string("FAIL://t\0e.ORG/\n", 16), std::string("http://e-id <7@E.ne>\n")}) {
        const std::string once = rewrite(text, o);
        CHECK(rewrite(once, o) == once);
    }
    CHECK(rewrite("http://e-id <7@E.ne>\n", o) == "http://e-id/ <mailto:7@E.ne>\n");
    CHECK(rewrite("t.co/-ID <0@m.cm>\n", o) == "http://t.co/-ID <mailto:0@m.cm>\n");
    // Nor in a host name the rewrite completes: `ID` glued to `t.co` cued
    // a Message-ID, and no longer did once `http://` came before it.
    const std::string glued = "t.co`ID:<d@l.org>";
    CHECK(rewrite(glued, o) == "http://t.co/`ID:<mailto:d@l.org>");
    CHECK(rewrite(rewrite(glued, o), o) == rewrite(glued, o));
}

TEST_CASE("regression: a broken URL glued to the word before it is not joined", "[rewriter][regression]") {
    // On one line, `s://R[a://wR` is read as the run `s://R`: the joined
    // URL would be gone next time. `[` with no `]` after it opens link
    // text, so `s://R` alone is the URL, normalized, on both passes.
    rewrite_options o;
    o.scan.hyphen = hyphen_policy::drop;
    o.normalize = true;
    check_rewrite_settles("s://R[a://w-\nR", o, "s://r[a://w-\nR");
    // Apart from the word before, it is joined.
    CHECK(rewrite("see a://w-\nR", o) == "see a://wr");
}

TEST_CASE("regression: 'at' at the end of another word spells out no address", "[rewriter][regression]") {
    // `t.co/-` + ` s-at`: joined, `s-at` ends a URL; on its own line it
    // was read as `s- at W.CM`, an address spelled out, until the join.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    o.scan.hyphen = hyphen_policy::drop;
    o.normalize = true;
    check_rewrite_settles("t.co/-\n s-at W.CM/", o, "http://t.co/s-at http://w.cm/");
}

TEST_CASE("regression: a URL that ends a line in a typesetter's hyphen keeps its end", "[rewriter][regression]") {
    // `u‐` (U+2010) at a line's end makes `d.om/` the second half of a
    // word; normalized to `xn--u-0gn`, the next pass would complete it.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    o.normalize = true;
    const std::string text = "s://u\xE2\x80\x90\nd.om/://";
    check_rewrite_settles(text, o, text);
}

TEST_CASE("regression: link text in the first line of a broken URL is cut as on one line", "[rewriter][regression]") {
    // `ws://R'[a://w-` + `R`: joined, `[` opened link text only when it was
    // in the last line, so the joined `ws://R'[a://wr` was cut at `[` on
    // the next pass and normalized again there.
    rewrite_options o;
    o.scan.hyphen = hyphen_policy::drop;
    o.normalize = true;
    check_rewrite_settles("ws://R'[a://w-\nR", o, "ws://r/'[a://w-\nR");
}

TEST_CASE("regression: the > that closes a wrapper is no arrow, before and after the URL is normalized",
          "[rewriter][regression]") {
    // `<http://t->t.gg`: the `>` closes the brackets, so `->` is no C
    // member arrow gluing `t.gg` to the URL. Read as one, `t.gg` was left
    // on the first pass and completed on the next, after `http://t-/>`.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    o.normalize = true;
    check_rewrite_settles("<http://t->t.gg", o, "<http://t-/>http://t.gg/");
    // The same after a wrapper that the brackets hold across a line break,
    // and before a second wrapper.
    for (const std::string& text : {std::string("<p://t\n->t.gf"), std::string("<h\n://t->t.gg"),
                                    std::string("<http://t-><t.gg>")}) {
        const std::string first = rewrite(text, o);
        CHECK(rewrite(first, o) == first);
    }
    // Outside brackets, `->` still glues a member to the expression.
    CHECK(rewrite("ic->core.im", o) == "ic->core.im");
}

TEST_CASE("regression: the header field of a long line is read from its start, before and after a rewrite",
          "[rewriter][regression]") {
    // Only the end of a long line is kept before a word. Its field was read
    // from wherever that end began: from `PATH:'ook...` on the first pass,
    // so `o.om` was left, and from nowhere once the names before it had
    // grown.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all & ~static_cast<abbrev_set>(abbrev_kind::ipv4);
    check_rewrite_settles("xPATH:'ook.com>on.cake.co|o.comoe.com|o.comcom.c.com|o.comoe.com|o.om\n", o,
                          "xPATH:'ook.com>http://on.cake.co|http://o.comoe.com|http://o.comcom.c.com|"
                          "http://o.comoe.com|http://o.om\n");
    // A trace field whose recipient's address, completed, makes the line
    // longer than the context: the relay after it is a relay still.
    check_rewrite_settles("Received: from aaaaaaaaaaaa.b.org for xxxxxxxxxx@y.org by cc.example.org\n", o,
                          "Received: from aaaaaaaaaaaa.b.org for mailto:xxxxxxxxxx@y.org by cc.example.org\n");
}

TEST_CASE("regression: a change log's list is one however long a rewrite makes it", "[rewriter][regression]") {
    // Normalized, the first URL made the list longer than the context kept
    // before `foo.com`, which was then no longer seen as a list's file.
    rewrite_options o;
    o.scan.abbrev.kinds = abbrev_all;
    o.normalize = true;
    const std::string name(33, 'a');
    check_rewrite_settles("\t* http://" + name + ".org, bbbbbbbbbbbb, foo.com: Fix.\n", o,
                          "\t* http://" + name + ".org/, bbbbbbbbbbbb, foo.com: Fix.\n");
}

TEST_CASE("regression: a reference resolved after URL: is written only if it reads back as one URL",
          "[rewriter][regression]") {
    // `///ws://y` has an empty authority: against this base it resolves to
    // `http:///ws://y`, which the next pass read as `ws://y` in text, and
    // normalized. In brackets the written URL still reads as one.
    rewrite_options o;
    o.base = *resolver::make("http://[::1]:8080/%7Euser/", {.mode = resolve_mode::rfc2396, .normalize = true});
    o.normalize = true;
    CHECK(rewrite("URL:///ws://y", o) == "URL:///ws://y");
    check_rewrite_settles("<///ws://y>", o, "<http:///ws://y>");
    CHECK(rewrite("URL:../a/b", o) == "URL:http://[::1]:8080/a/b");
}

TEST_CASE("regression: a URL found in the cut text of one over the length limit keeps its length",
          "[rewriter][regression]") {
    // `ws://R'[a://w:/ra` is one byte over a limit of 16: cut, its text is
    // no URL, and `a://w:/ra` is read inside it. Normalized to
    // `a://w/ra`, it made the whole fit the limit, and the next pass read
    // `ws://R` before the `[` that opens link text, and normalized that.
    rewrite_options o;
    o.normalize = true;
    o.scan.max_url_length = 16;
    for (const std::string text : {"ws://R'[a://w:/ra", "see ws://R'[a://w:/ra"}) {
        check_rewrite_settles(text, o, text);
    }
    // Within the limit, the link text is cut and both are normalized.
    o.scan.max_url_length = 17;
    CHECK(rewrite("ws://R'[a://w:/ra", o) == "ws://r/'[a://w:/ra");
}

TEST_CASE("regression: --style angle leaves a URL glued to the next item of a list unwrapped", "[rewriter][regression]") {
    // `P://E,s://i-` + `r`: wrapped as `<P://E>`, the next URL no longer
    // started after a word, and the next pass joined its lines.
    rewrite_options o = with_base("http://a/b/c/d;p?q");
    o.angle_style = true;
    o.scan.abbrev.kinds = abbrev_all;
    const std::string text = "P://E,s://i-\nr";
    check_rewrite_settles(text, o, text);
    // Followed by a blank, the URL is wrapped.
    CHECK(rewrite("see P://E, s://i", o) == "see <P://E>, <s://i>");
}
