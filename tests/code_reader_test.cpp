// Source code and configuration read by their language: comments are
// prose, strings and configuration values give URLs with a scheme only, the
// rest of a program gives nothing, and a rewrite edits comments alone.

#include <urlsift/document_scan.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace urlsift;

namespace {

using strings = std::vector<std::string>;

/// The URLs found in `text`, a file called `name`.
strings urls_in(std::string_view text, std::string_view name) {
    const document_layout layout = read_document(text, document_format::code, default_parse_memory, name);
    strings urls;
    scan_document(text, layout, {}, nullptr, [&](found_reference& r) {
        urls.push_back(r.url);
        return true;
    });
    return urls;
}

std::string rewritten(std::string_view text, std::string_view name, const char* base) {
    rewrite_options o;
    o.base = *resolver::make(base);
    return rewrite_document(text, document_format::code, o, default_parse_memory, name).text;
}

}  // namespace

TEST_CASE("code: a language is known by its file's name or its #! line", "[code]") {
    CHECK(format_from_name("src/main.c") == document_format::code);
    CHECK(format_from_name("lib/Foo.pm") == document_format::code);
    CHECK(format_from_name("/etc/ntp.conf") == document_format::code);
    CHECK(format_from_name("build/Makefile") == document_format::code);
    CHECK(format_from_name("notes.txt") == std::nullopt);
    CHECK(format_from_name("README.md") == document_format::markdown);
    CHECK(code_language_of("x/CMakeLists.txt", "") == "CMake");
    CHECK(code_language_of("app.service", "") == "systemd unit");
    CHECK(code_language_of("tool", "#!/bin/sh\necho hi\n") == "shell");
    CHECK(code_language_of("tool", "#!/usr/bin/env -S python3.11 -u\n") == "Python");
    CHECK(code_language_of("tool", "#! /usr/bin/perl -w\n") == "Perl");
    CHECK(code_language_of("tool", "#!/usr/bin/env FOO=1 node\n") == "JavaScript");
    CHECK(code_language_of("notes", "Dear reader,\n") == "");
    // Neither says: the text is prose.
    CHECK(urls_in("see example.org\n", "notes") == strings{"http://example.org"});
}

TEST_CASE("code: an extension matches in any case, a whole name exactly, an extension alone never", "[code]") {
    CHECK(code_language_of("MAIN.C", "") == "C");
    CHECK(code_language_of("x.Hpp", "") == "C++");
    CHECK(code_language_of("a/b.h++", "") == "C++");
    CHECK(code_language_of("plot.R", "") == "R");
    CHECK(code_language_of("plot.r", "") == "R");
    CHECK(code_language_of("site.webmanifest", "") == "JSON");
    // The name's last extension decides.
    CHECK(code_language_of("x.tar.gz", "") == "");
    CHECK(code_language_of("conf.d/x.conf", "") == "configuration");
    CHECK(code_language_of("x.c/README", "") == "");
    // A whole name: `.bashrc` is one, not an extension; `.gitconfig` is both.
    CHECK(code_language_of(".bashrc", "") == "shell");
    CHECK(code_language_of("old.bashrc", "") == "");
    CHECK(code_language_of(".gitconfig", "") == "INI");
    CHECK(code_language_of("work.gitconfig", "") == "INI");
    CHECK(code_language_of("Makefile", "") == "Makefile");
    CHECK(code_language_of("MAKEFILE", "") == "");
    CHECK(code_language_of("cmakelists.txt", "") == "");
    // An extension is less than the whole name.
    CHECK(code_language_of(".c", "") == "");
    CHECK(code_language_of("src/.py", "") == "");
    CHECK(code_language_of("", "") == "");
    CHECK(code_language_of("x.", "") == "");
    CHECK(code_language_of("x.averyveryverylongextension", "") == "");
}

TEST_CASE("code: Python comments are prose, strings hold URLs with a scheme only, code holds none", "[code][regression]") {
    const std::string py = "#!/usr/bin/env python3\n"
                           "\"\"\"Docs at www.python.org/dev/peps/ and https://docs.python.org/3/.\"\"\"\n"
                           "from unittest.test.testmock.support import is_instance\n"
                           "HOST = 'www.google.com'\n"
                           "PROXY = \"socks5://proxy.example.net:1080/\"\n"
                           "# See https://bugs.python.org/issue43285/.\n"
                           "self.fake_pasv_server_ip = '252.253.254.255'\n"
                           "x = a.b.org  # no host: mozilla.org code, but <https://www.mozilla.org/MPL/>\n";
    CHECK(urls_in(py, "test_ftplib.py") ==
          strings{"http://www.python.org/dev/peps/", "https://docs.python.org/3/", "socks5://proxy.example.net:1080/",
                  "https://bugs.python.org/issue43285/", "https://www.mozilla.org/MPL/"});
    // Read as plain text, the comment's URL ran on into the next statement.
    rewrite_options o;
    CHECK(rewritten(py, "test_ftplib.py", "http://a.example/b/") == py);
}

TEST_CASE("code: Go import paths and test data are values, not links", "[code]") {
    const std::string go = "package main\n\n"
                           "import (\n\t\"fmt\"\n\t\"golang.org/x/text/runes\"\n)\n\n"
                           "// pos is protected by n.mu; see https://go.dev/issue/58446.\n"
                           "func main() {\n"
                           "\tq := '\"'\n"
                           "\tfmt.Println(\"visit https://go.dev/play\", `raw www.raw.example http://raw.example/`, q)\n"
                           "\tr.in.next = nil\n"
                           "}\n";
    CHECK(urls_in(go, "main.go") == strings{"https://go.dev/issue/58446", "https://go.dev/play", "http://raw.example/"});
}

TEST_CASE("code: a URL broken across comment lines joins only where the next line goes on the comment",
          "[code]") {
    const std::string cpp = "    // Source:\n"
                            "    // https://en.wikipedia.org/wiki/\n"
                            "    //   Binomial_proportion_confidence_interval#Clopper%E2%80%93Pearson_interval\n"
                            "    int x; // https://example.org/a/\n"
                            "    y = z; // b/c\n";
    CHECK(urls_in(cpp, "interval.hpp") ==
          strings{"https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Clopper%E2%80%93Pearson_interval",
                  "https://example.org/a/"});
    const std::string c = "/*\n * libstdc++: see\n * https://github.com/gcc-mirror/gcc/commit/\n *   2fa630fb50ba29d8e891c52a75aaec261b07874e#\n */\n"
                          "https://not.in.a.comment/\n";
    CHECK(urls_in(c, "is_function.h") ==
          strings{"https://github.com/gcc-mirror/gcc/commit/2fa630fb50ba29d8e891c52a75aaec261b07874e#"});
    // The comment goes on the line after, but the URL never runs into code.
    CHECK(urls_in("# https://example.org/x/\nfoo/bar\n", "run.sh") == strings{"https://example.org/x/"});
}

TEST_CASE("code: a comment goes on only from the line just before", "[code]") {
    // A blank line, or a line with code before its comment, ends it.
    CHECK(urls_in("# https://example.org/a/\n\n# b/c\n", "a.py") == strings{"https://example.org/a/"});
    CHECK(urls_in("# https://example.org/a/\nx = 1  # b/c\n# d/e\n", "a.py") == strings{"https://example.org/a/"});
    CHECK(urls_in("# https://example.org/a/\n# b/c\n", "a.py") == strings{"https://example.org/a/b/c"});
}

TEST_CASE("code: a string or a docstring ends at its quote, not at an escaped one, however long", "[code]") {
    // Escapes on both sides of 16-byte boundaries: the comment after the
    // string is prose, and the string's URL is read as a value.
    for (std::size_t pad = 0; pad < 20; ++pad) {
        const std::string py = "s = \"" + std::string(pad, 'x') + " \\\" https://a.example/x \\\\\"  # see https://b.example/y\n";
        CHECK(urls_in(py, "a.py") == strings{"https://a.example/x", "https://b.example/y"});
        const std::string doc = "def f():\n    \"\"\"" + std::string(pad, 'x') + " \\\"\"\" https://c.example/\n    \"\"\"\n" +
                                "    return 1  # https://d.example/z\n";
        CHECK(urls_in(doc, "a.py") == strings{"https://c.example/", "https://d.example/z"});
    }
}

TEST_CASE("code: configuration values give URLs with a scheme, comments are prose without bare hosts", "[code]") {
    const std::string conf = "# /etc/ntp.conf, see http://support.ntp.org/bin/view/Support/GettingStarted\n"
                             "server 0.debian.pool.ntp.org iburst\n"
                             "#NTP=1.debian.pool.ntp.org\n"
                             "url = https://conf.example/x#frag\n";
    CHECK(urls_in(conf, "ntp.conf") ==
          strings{"http://support.ntp.org/bin/view/Support/GettingStarted", "https://conf.example/x#frag"});
    const std::string yaml = "homepage: https://yaml.example/   # www.comment.org/docs\nserver: ntp.example.org\n";
    CHECK(urls_in(yaml, "a.yml") == strings{"https://yaml.example/", "http://www.comment.org/docs"});
    const std::string ini = "[Unit]\nDocumentation=man:foo(8) https://unit.example/doc\n; a note\n";
    CHECK(urls_in(ini, "foo.service") == strings{"https://unit.example/doc"});
}

TEST_CASE("code: shell strings span lines, heredocs are values, a # inside a word is no comment", "[code]") {
    const std::string sh = "#!/bin/sh\n"
                           "msg=\"\\\nThis system lacks NEON. See https://lists.example.org/msg00175.html\n"
                           "for more.\"\n"
                           "echo \"Report bugs to <xz@tukaani.org>.\" # or example.com\n"
                           "wget http://x.example/a#frag\n"
                           "cat <<EOF\nDon't miss https://heredoc.example/ or www.heredoc.example\nEOF\n"
                           "echo 'it''s' http://after.example/\n";
    CHECK(urls_in(sh, "lzgrep") == strings{"https://lists.example.org/msg00175.html", "mailto:xz@tukaani.org",
                                           "https://heredoc.example/"});
}

TEST_CASE("code: XML namespaces, schema locations and doctypes are names, not links", "[code]") {
    const std::string xml =
        "<?xml version=\"1.0\"?>\n"
        "<!DOCTYPE catalog PUBLIC \"-//OASIS//DTD\" \"file:///usr/share/xml/catalog.dtd\">\n"
        "<settings xmlns=\"http://maven.apache.org/SETTINGS/1.2.0\"\n"
        "  xsi:schemaLocation=\"http://maven.apache.org/SETTINGS/1.2.0 http://maven.apache.org/xsd/settings.xsd\">\n"
        "  <!-- see https://maven.apache.org/settings.html -->\n"
        "  <url>https://repo.example.org/maven2</url><host>proxy.host.net</host>\n"
        "  <link href=\"https://attr.example/\"/>\n"
        "</settings>\n";
    CHECK(urls_in(xml, "settings.xml") ==
          strings{"https://maven.apache.org/settings.html", "https://repo.example.org/maven2", "https://attr.example/"});
}

TEST_CASE("code: Perl's POD is prose, a C character literal opens no string", "[code]") {
    const std::string pl = "my $x = 1; # www.comment.org\n\n=head1 SEE ALSO\n\nL<https://metacpan.org/pod/perlpod>,"
                           " www.perl.org\n\n=cut\n\nprint \"done\\n\";\n";
    CHECK(urls_in(pl, "Foo.pm") ==
          strings{"http://www.comment.org", "https://metacpan.org/pod/perlpod", "http://www.perl.org"});
    const std::string c = "char q = '\"'; char *s = \"http://in.string.example/\"; /* http://in.comment.example/ */\n";
    CHECK(urls_in(c, "q.c") == strings{"http://in.string.example/", "http://in.comment.example/"});
}

TEST_CASE("code: POD's E<lt> and E<gt> are read as angle brackets", "[code]") {
    // perlpod writes a mail address in angle brackets with escapes; read
    // as written, `E<lt>name@cpan.orgE<gt>` gave nothing.
    const std::string pl = "package Foo;\n\n=head1 AUTHOR\n\nJane Doe E<lt>jane@cpan.orgE<gt>, see\n"
                           "E<lt>https://metacpan.org/dist/FooE<gt>.\n\n=cut\n\nmy $cmp = $a E<lt> $b;\n";
    CHECK(urls_in(pl, "Foo.pm") == strings{"mailto:jane@cpan.org", "https://metacpan.org/dist/Foo"});
    const document_layout layout = read_document(pl, document_format::code, default_parse_memory, "Foo.pm");
    REQUIRE(layout.escapes.size() == 4);
    CHECK(layout.escapes[0] == escaped_char{{pl.find("E<lt>"), 5}, '<'});
    CHECK(layout.escapes[1] == escaped_char{{pl.find("E<gt>"), 5}, '>'});
    // The view keeps lines and columns: blanks, and the bracket beside the text.
    const std::string view = prose_view(pl, layout);
    CHECK(view.size() == pl.size());
    CHECK(view.find("Jane Doe     <jane@cpan.org>    , see") != std::string::npos);
    // A rewrite leaves the escapes as written.
    rewrite_options o;
    o.base = *resolver::make("http://a.example/");
    CHECK(rewrite_document(pl, document_format::code, o, default_parse_memory, "Foo.pm").text == pl);
}

TEST_CASE("code: rewrite edits comments only, each on its own", "[code]") {
    const std::string py = "# See <../docs/intro.html>, and www.example.org/x.\n"
                           "URL = '../docs/intro.html'\n"
                           "\"\"\"Docstring: <../docs/other.html>.\"\"\"\n";
    CHECK(rewritten(py, "a.py", "http://a.example/src/pkg/") ==
          "# See <http://a.example/src/docs/intro.html>, and http://www.example.org/x.\n"
          "URL = '../docs/intro.html'\n"
          "\"\"\"Docstring: <../docs/other.html>.\"\"\"\n");
    // A URL broken across two comment lines stays as written.
    const std::string split = "// https://example.org/a/\n//   b/c\n";
    CHECK(rewritten(split, "a.c", "http://a.example/") == split);
}

TEST_CASE("code: configuration that is XML is read as XML, and a doctype in configuration names a DTD",
          "[code][regression]") {
    // A D-Bus policy named .conf: its DOCTYPE's system identifier was
    // listed as a link, and its comments were values.
    const std::string policy = "<?xml version=\"1.0\"?> <!--*-nxml-*-->\n"
                               "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
                               "        \"https://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                               "<!-- see https://dbus.example/doc and dbus.example.org -->\n"
                               "<busconfig><allow own=\"org.freedesktop.timesync1\"/>\n"
                               "<listen>tcp:host=localhost,port=0</listen><include>https://inc.example/x</include>\n"
                               "</busconfig>\n";
    CHECK(urls_in(policy, "org.freedesktop.timesync1.conf") ==
          strings{"https://dbus.example/doc", "https://inc.example/x"});
    const document_layout layout = read_document(policy, document_format::code, default_parse_memory, "a.conf");
    REQUIRE(layout.prose.size() == 2);  // the two comments
    // An INI-named file of XML definitions, with a byte order mark.
    const std::string cfg = "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- Ref.: \n https://developer.example/NSPR \n-->\n"
                            "<def><define name=\"PR_EXPORT(__type)\" value=\"\"/></def>\n";
    CHECK(urls_in(cfg, "nspr.cfg") == strings{"https://developer.example/NSPR"});
    // Further down a file, after a comment: the doctype is still no link.
    const std::string later = "# generated\n<!DOCTYPE busconfig PUBLIC \"-//X//EN\"\n \"http://dtd.example/b.dtd\">\n"
                              "url = https://value.example/\n";
    CHECK(urls_in(later, "system.conf") == strings{"https://value.example/"});
}

TEST_CASE("code: XML Signature algorithms and types and XML catalog identifiers are names", "[code][regression]") {
    const std::string xml =
        "<Signature xmlns=\"http://www.w3.org/2000/09/xmldsig#\">\n"
        "<SignatureMethod Algorithm=\"http://www.w3.org/2000/09/xmldsig#rsa-sha1\"/>\n"
        "<EncryptedData Type=\"http://www.w3.org/2001/04/xmlenc#Element\"/>\n"
        "<ds:Transform ds:Algorithm='http://www.w3.org/2000/09/xmldsig#enveloped-signature'/>\n"
        "<system systemId=\"http://www.oasis-open.org/committees/entity/release/1.0/catalog.dtd\" uri=\"catalog.dtd\"/>\n"
        "<rewriteSystem systemIdStartString=\"http://docbook.example/xml/\" rewritePrefix=\"file:///usr/share/xml/\"/>\n"
        "<item name=\"Security\" href=\"https://commons.example/security.html\"/>\n"
        "</Signature>\n";
    CHECK(urls_in(xml, "sign2-res.xml") == strings{"file:///usr/share/xml/", "https://commons.example/security.html"});
}

TEST_CASE("code: tag and urn URIs in strings are names, not links", "[code][regression]") {
    const std::string py = "DEFAULT_SCALAR_TAG = u'tag:yaml.org,2002:str'\n"
                           "NS = \"urn:ietf:params:xml:ns:yang:1\"\n"
                           "SPEC = 'https://yaml.org/type/'\n";
    CHECK(urls_in(py, "resolver.py") == strings{"https://yaml.org/type/"});
}

TEST_CASE("code: a URL a program completes, or with the host 0.0.0.0, is no link", "[code][regression]") {
    const std::string go = "u := \"socks5://user:password@\" + addr\n"
                           "p := \"http://\" + host + \"/x\"\n"
                           "b := \"http://:8080/\"\n"
                           "l := \"http://0.0.0.0:8080/metrics\"\n"
                           "f := \"file:///usr/share/backgrounds/a.webp\"\n"
                           "h := \"https://go.dev/play\"\n";
    CHECK(urls_in(go, "proxy.go") == strings{"file:///usr/share/backgrounds/a.webp", "https://go.dev/play"});
    const std::string xml = "<mirror><url>http://0.0.0.0/</url><url>https://repo.example/m2</url></mirror>\n";
    CHECK(urls_in(xml, "settings.xml") == strings{"https://repo.example/m2"});
}

TEST_CASE("code: a namespace passed to a DOM method or in Clark's notation is a name", "[code][regression]") {
    const std::string js = "span = document.createElementNS(\"http://www.w3.org/2000/svg\", \"tspan\");\n"
                           "a.setAttributeNS( 'http://www.w3.org/1999/xlink', 'href', 'https://img.example/a.png');\n"
                           "load(\"https://data.example/x.json\");\n";
    CHECK(urls_in(js, "highlight.js") == strings{"https://img.example/a.png", "https://data.example/x.json"});
    const std::string py = "links = root.findall('{http://www.w3.org/2005/Atom}link')\n"
                           "fmt = '{}'.format(x); url = '{0} see https://fmt.example/'\n";
    CHECK(urls_in(py, "feed.py") == strings{"https://fmt.example/"});
}

TEST_CASE("code: a mail address at a placeholder domain is no link in code, but is in text", "[code][regression]") {
    const std::string sh = "# Usage: cat m.txt | mail.sh target@domain.com\n"
                           "# sender=e2scrub@host.domain.name\n"
                           "# Contact foo@example.net or bar@x.example, not you@site.invalid\n"
                           "# Author: Jane Roe <jane@roe-mail.org>\n"
                           "echo \"Report bugs to <bugs@example.org> or <bugs@mail.realhost.org>\"\n";
    CHECK(urls_in(sh, "mail.sh") == strings{"mailto:jane@roe-mail.org", "mailto:bugs@mail.realhost.org"});
    // Written with its scheme, an address is a link wherever it is.
    CHECK(urls_in("# mailto:foo@example.net\n", "a.sh") == strings{"mailto:foo@example.net"});
    // Plain text keeps its rules.
    CHECK(urls_in("Contact foo@example.net\n", "notes") == strings{"mailto:foo@example.net"});
}
