// Precision on text nobody here wrote: each rule with the kind of excerpt
// (man pages, changelogs, RFCs, mail) that showed it was needed. What a
// careful reader takes for a link is found; code, markup and mail
// plumbing are not.

#include "scan_test_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using list = std::vector<std::string>;

namespace {

/// The URLs found, the same whole and in chunks.
list found(std::string_view text) { return urlsift::test::urls_of(text); }

}  // namespace

TEST_CASE("angle brackets holding program text are no wrappers", "[scanner][precision]") {
    // C and C++ sources and manuals (stdio(3), g++(1)).
    CHECK(found("#include <stdio.h>\n#include <sys/types.h>\n").empty());
    CHECK(found("   #  include <boost/asio>\n").empty());
    CHECK(found("       std::map<std::string, int> counts;\n").empty());
    // TLS presentation language (RFC 8446 section 3): vector bounds.
    CHECK(found("          opaque cookie<1..2^16-1>;\n          uint8 legacy<0..255>;\n").empty());
    // XML configuration in a README, a Windows path in a FAQ.
    CHECK(found("  Add <allow_anonymous/> to the <policy> element.\n").empty());
    CHECK(found("Install into <c:\\Program Files\\Foo> by default.\n").empty());
    // Sphinx roles: the target of :doc: is a document name.
    CHECK(found("See :doc:`the tutorial </guide/start>` first.\n").empty());
    // A shell redirection (git-index-pack(1)).
    CHECK(found("       $ git index-pack --stdin <tmp.pack >trailer\n").empty());
    // A mail header naming a list.
    CHECK(found("List-Id: Debian Development <debian-devel.lists.debian.org>\n").empty());
    // An end tag a line break cut (fontconfig's user guide, wrapped XML).
    CHECK(found("        <edit name=\"family\"><string>sans-serif</strin\ng></edit>\n").empty());
    // POD formatting codes (the source of adduser.local(8)) and a type
    // argument: the `<` is glued to a word.
    CHECK(found("The B<adduser.local> script, once installed as\nF</usr/local/sbin/adduser.local>, is run.\n")
              .empty());
    CHECK(found("    std::vector<detail.h> parts;\n").empty());
    // POD's L<> around a URL is still a link, and brackets after a blank or
    // punctuation still wrap a relative reference.
    CHECK(found("See L<https://metacpan.org/pod/perlpod>.\n") == list{"https://metacpan.org/pod/perlpod"});
    CHECK(found("Read <index.html> and the FAQ (<faq.html>).\n") == list{"index.html", "faq.html"});
    // A reST link with a URL is one.
    CHECK(found("See `the site <https://example.org/docs/>`_.\n") == list{"https://example.org/docs/"});
}

TEST_CASE("header names and AppArmor includes and declarations and addresses in brackets are no references", "[scanner][precision]") {
    // Changelogs of glibc, libX11, coreutils and dbus: header names written
    // without their suffix or with another, and AppArmor's abstractions.
    CHECK(found("  * debian/rules.d/build.mk: stop deleting <rpcsvc/yppasswd.h> and\n    <rpcsvc/yppasswd.x>.\n")
              .empty());
    CHECK(found("\t* systems.h: Removed the include for <sys/types> and now\n").empty());
    CHECK(found("    Use <X11/XCB> and <X11/Xtrans/transport.c> there\n").empty());
    CHECK(found("  default in AppArmor's <abstractions/dbus-strict> and\n  <tunables/global>.\n").empty());
    // CGI.pm's changelog: the XML declaration, named without its `?>`.
    CHECK(found("   11. The <?xml> directive produced by start_html is now turned off by\n").empty());
    // An address cut at its end, and an scp target.
    CHECK(found("\tSubmitted by:\t Kyle VanderBeek <kylev@users.sourceforge.>\n").empty());
    CHECK(found("Clone <git@github.com:example/repo.git> first.\n").empty());
    // A reverse-DNS name: a D-Bus service, an address turned around.
    CHECK(found("the bus name <org.freedesktop.DBus> and <org.gnome.Shell.Extensions>\n").empty());
    CHECK(found("2008-06-13  Madhusudan Hosaagrahara <com.gmail.hrmadhu>\n").empty());
    // The argument of an option (parallel_examples(7), gitfaq(7)).
    CHECK(found("  mkfifo tmpfile.tmx; tmux -S <tmpfile.tms> new-session -s p$PID\n").empty());
    CHECK(found("           use git rm --cached <file/pattern> and add a pattern to .gitignore\n").empty());
    CHECK(found("\tadded internal switch '--debug-file <debugfile.txt>', allows to debug\n").empty());
    // Appendix C's <?y> and a path under a directory of another name stay,
    // and so do brackets after a dash in prose.
    CHECK(found("See <?y> and <docs/sys/types.html>.\n") == list{"?y", "docs/sys/types.html"});
    CHECK(found("The manual -- <docs/manual.html> -- explains it.\n") == list{"docs/manual.html"});
}

TEST_CASE("a file in a tool's message and an elided path are no references", "[scanner][precision]") {
    // groff's warnings quoted in xz's changelog, a compiler's in a bug
    // report: a line number follows the brackets.
    CHECK(found("    <src/scripts/xzgrep.1>:20 (macro RB): only 1 argument, but more are expected\n").empty());
    CHECK(found("<stdin>:3:12: error: expected ';'\n").empty());
    // libX11's changelog: `...` stands for the names left out.
    CHECK(found("    - For now put xtrans in X11/Xtrans/X11, since libX11 is looking for it in <X11/...>\n").empty());
    CHECK(found("Everything under <docs/.../api/> moved.\n").empty());
    // strace's seconds spent in a call and a version (strace's changelog),
    // a glob and a warning in emphasis marks (libpam's), a lone `#` for a
    // number (GMP's), AsciiDoc's cross reference (Tk's).
    CHECK(found("openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3 <0.000399>\n").empty());
    CHECK(found("Needs libfoo <1.2.3> or later.\n").empty());
    CHECK(found("Reads every <*.conf> and <src/**/*.c> file.\n").empty());
    CHECK(found("\t\t\t</**WARNING**>\n").empty());
    CHECK(found("Document new parameter syntax mpn_mul.<#> .\n").empty());
    CHECK(found("* doc/ttk_spinbox.n: <<Increment/Decrement>> (ttk_spinbox only)\n").empty());
    // Alternatives in a syntax (man-db's manual), a reST role written with
    // the backquote before the bracket (Python's NEWS), an address spelled
    // out (libgcrypt's ChangeLog).
    CHECK(found("   <realname>|<ext>|<mtime.sec>|<mtime.nsec>|<ID>\n").empty());
    CHECK(found("  * Ignored :meth:`<unittest.TestLoader.loadTestsFromModule> TestLoader.x`.\n").empty());
    CHECK(found("2017-02-04  Mathias L. Baumann  <mathias.baumann_at_sociomantic.com>\n").empty());
    // A host's address (getifaddrs(3)), a value a program printed (core(5)),
    // a placeholder with its unit glued on (ip-tcp_metrics(8)).
    CHECK(found("                           address: <127.0.0.1>\n").empty());
    CHECK(found("           argc[0]=</home/mtk/core_pattern_pipe_test>\n").empty());
    CHECK(found("       closed  in $<..> brackets, as in el=\\EK$<5>, and padding\n").empty());
    CHECK(found("       age <S.MMM>sec - time after the entry was created\n").empty());
    CHECK(found("Appendix C: <#s> and <?y>, then <<http://example.org/x>>.\n") ==
          list{"#s", "?y", "http://example.org/x"});
    // A reference followed by a colon, or by the number of a note, is one.
    CHECK(found("The guide is at <docs/guide.html>: read it first.\n") == list{"docs/guide.html"});
    CHECK(found("See <docs/guide.html>1 below.\n") == list{"docs/guide.html"});
    CHECK(found("Look at <http://example.org/a.c>:20 there.\n") == list{"http://example.org/a.c"});
    CHECK(found("Go up: <../index.html> or <./>.\n") == list{"../index.html", "./"});
}

TEST_CASE("HTML source read as text: an escaped quote or bracket ends a URL", "[scanner][precision]") {
    // GNU parallel's HTML examples: shell code inside <pre>.
    CHECK(found("youtube-dl --flat-playlist &quot;https://example.org/list&quot; |\n") ==
          list{"https://example.org/list"});
    CHECK(found("  loop &#39;curl -sw &quot;%{http_code}&quot; http://coolwebsite.biz&#39; \\\n") ==
          list{"http://coolwebsite.biz"});
    CHECK(found("&lt;http://example.org/a&gt; and &#x27;http://example.org/b&#X27;\n") ==
          list{"http://example.org/a", "http://example.org/b"});
    // An escaped ampersand is data of the query.
    CHECK(found("http://example.org/q?a=1&amp;b=2\n") == list{"http://example.org/q?a=1&amp;b=2"});
}

TEST_CASE("a URL in a string literal ends at a backslash escape", "[scanner][precision]") {
    // C examples in manuals and READMEs (xmlsec's decrypt1.c, printf(3)).
    CHECK(found("    printf(\"see https://example.org/path\\n\");\n") == list{"https://example.org/path"});
    CHECK(found("    fprintf(stdout, \"Decrypted data:\\n\");\n").empty());
    CHECK(found("    puts(\"Visit www.example.org/docs\\n\");\n") == list{"http://www.example.org/docs"});
    // Node's API documentation as JSON: code samples in strings.
    CHECK(found("\"desc\": \"// Prints https://xn--g6w251d\\n\\nconsole.log(idnURL.hostname);\\n// Prints\"\n") ==
          list{"https://xn--g6w251d"});
    CHECK(found("\"source\": \"https://github.com/nodejs/node/blob/v20/lib/url.js\\\"\" x\n") ==
          list{"https://github.com/nodejs/node/blob/v20/lib/url.js"});
    CHECK(found("x = \"https://example.org/a\\tb\", y = 'https://example.org/c\\'d'\n") ==
          list{"https://example.org/a", "https://example.org/c"});
    CHECK(found("\"https://example.org/q?a=1\\u0026b=2\"\n") == list{"https://example.org/q?a=1"});
    // Other backslashes stay: JSON's escaped slash, a Markdown escape, a
    // Windows-style path.
    CHECK(found("\"https://example.org/a\\/b\"\n") == list{"https://example.org/a\\/b"});
    CHECK(found("see https://example.org/snake\\_case here\n") == list{"https://example.org/snake\\_case"});
    CHECK(found("http://example.org\\foo\n") == list{"http://example.org\\foo"});
}

TEST_CASE("a backslash that continues a command line is no part of a URL", "[scanner][precision]") {
    // gcloud's manual pages: shell commands continued over lines.
    CHECK(found("  --artifact-url=gcr.io/example-project/image@sha256:abcd\\\n  --attestor=a\n") ==
          list{"http://gcr.io/example-project/image@sha256:abcd"});
    CHECK(found("curl http://example.org/a\\\n  -o x\n") == list{"http://example.org/a"});
    CHECK(found("curl http://example.org/a\\") == list{"http://example.org/a"});
    // Inside a word the continuation joins the lines, as the shell does.
    CHECK(found("    --service-account=service-account@project.iam.gserviceaccount.co\\\nm --level=abc \\\n") ==
          list{"mailto:service-account@project.iam.gserviceaccount.com"});
    CHECK(found("  --disk='name=https://www.googleapis.com/compute/v1/projects/my-pro\\\nject/zones/a' \\\n") ==
          list{"https://www.googleapis.com/compute/v1/projects/my-project/zones/a"});
    // A list of two, the second continued on the next line.
    CHECK(found("    --gcs-source=gs://my-bucket/a/one.rpm,gs://\\\nmy-bucket/a/two.rpm\n") ==
          list{"gs://my-bucket/a/one.rpm", "gs://my-bucket/a/two.rpm"});
    // Markdown's hard line break: a sentence starts on the next line.
    CHECK(found("The site is http://example.org/docs/\\\nThe next line.\n") == list{"http://example.org/docs/"});
}

TEST_CASE("a file name and a call or a glob after it are code", "[scanner][precision]") {
    // Changelogs of git, harfbuzz and glibc: .sh, .next and .in are TLDs.
    CHECK(found("      test-lib.sh/test_decode_color(): use octal not hex in awk script\n").empty());
    CHECK(found("    Rewrite next/previous_range() in terms of s.next/previous()\n").empty());
    CHECK(found("    debian/libc*.symbols*, debhelper.in/*install*: drop support\n").empty());
    // A path of a site is still one.
    CHECK(found("See docs.rs/serde and allegro.pl/oferta.\n") == list{"http://docs.rs/serde", "http://allegro.pl/oferta"});
}

TEST_CASE("a host written as a placeholder makes no URL", "[scanner][precision]") {
    // Node.js's documentation: template literals; GNU parallel's: a shell
    // variable; Chromium's README: a printf format.
    CHECK(found("  const { port, hostname } = new URL(`http://${req.url}`);\n").empty());
    CHECK(found("const myURL = new URL(`https://example.org${pathname}${search}${hash}`);\n").empty());
    CHECK(found("youtube-dl \"https://$url\" | grep -v http://{{host}}/x\n").empty());
    CHECK(found("\"disabled\" \"disabled\" \"http://%s\" as the three fields\n").empty());
    // Wildcards (chromium(1)'s proxy rules).
    CHECK(found("Load https://* URLs using the proxy, and http://*.example.org/ directly\n").empty());
    // A percent-encoded host name is a host.
    CHECK(found("see http://%cf%80.example.com/ now\n") == list{"http://%cf%80.example.com/"});
}

TEST_CASE("a scheme is a scheme only where running text writes one", "[scanner][precision]") {
    // C++ scope, a vim modeline, a GnuPG card reader option.
    CHECK(found("returns std::type_info::operator== as well\n").empty());
    CHECK(found("# vim:set ts=8 sw=4:\n").empty());
    CHECK(found("  reader-port scd:ccid:x\n").empty());
    // Pascal's assignment to a field named like a scheme (im: is registered),
    // printf's format for a URL, a regular expression in a Perl one-liner.
    CHECK(found("         i[a].im:=0;\n").empty());
    CHECK(found("    return g_strdup_printf(\"Git: %s://%s/%s\", proto, host, path);\n").empty());
    CHECK(found("  sort -un | perl -pe &#39;s/^\\d+://&#39;</code></pre>\n").empty());
    // A registered scheme glued to a word still counts before "//".
    CHECK(found("randomtexthttp://example.org/x\n") == list{"http://example.org/x"});
}

TEST_CASE("groff's hyphen at a line break inside a URL is dropped", "[scanner][precision]") {
    // man -P cat renders a hyphenated word with U+2010 at the line end.
    CHECK(found("       See https://argcom\xE2\x80\x90\n       plete.readthedocs.io/ for details.\n") ==
          list{"https://argcomplete.readthedocs.io/"});
    CHECK(found("       <https://savan\xE2\x80\x90\n       nah.gnu.org/bugs/?group=groff>\n") ==
          list{"https://savannah.gnu.org/bugs/?group=groff"});
    // A soft hyphen likewise.
    CHECK(found("see http://exam\xC2\xAD\nple.org/x\n") == list{"http://example.org/x"});
}

TEST_CASE("a URL does not go on to a line that starts a sentence or a path", "[scanner][precision]") {
    CHECK(found("The sources are at http://example.org/dist/\nREADME.md explains the layout.\n") ==
          list{"http://example.org/dist/"});
    CHECK(found("Mirror: http://example.org/pub/\n/etc/hosts lists the others.\n") == list{"http://example.org/pub/"});
    // A file name and a period end a sentence (a GNU ChangeLog entry).
    CHECK(found("\tsee http://www.open-std.org/jtc1/docs/dr_233.htm.\n\ttests/tsprintf.c: Fix it.\n") ==
          list{"http://www.open-std.org/jtc1/docs/dr_233.htm"});
    // A wrapped file name in lower case still continues.
    CHECK(found("see http://example.org/docs/\nindex.html for details\n") == list{"http://example.org/docs/index.html"});
}

TEST_CASE("mail plumbing is not a link", "[scanner][precision]") {
    const std::string received =
        "Received: from mx2.example.net (mx2.example.net [192.0.2.7])\n"
        "\tby mail.example.org (Postfix) with ESMTPS id <0GK500B0XY@mail.example.org>\n"
        "\tfor <jdoe@example.org>; Tue, 3 Mar 2020 10:00:00 +0000\n"
        "Reporting-MTA: dns; smtp.example.com\n";
    // Relays and queue ids are not links; the `for` clause names the
    // recipient's mailbox (RFC 5321 4.4), folded or on the field's first line.
    CHECK(found(received) == list{"mailto:jdoe@example.org"});
    CHECK(found("Received: by mx.example.org for postmaster@example.net; Tue\n") ==
          list{"mailto:postmaster@example.net"});
    // A field line longer than the context kept before a word is one still.
    const std::string long_line =
        "Received: from pmta03.mx.example.com (127.0.0.1) by mail135-10.relay.example.net id hk0jj41sau80 "
        "for <jdoe@example.org>; (envelope-from <bounce-md_3011.55a0@mail.example.com>)\n";
    CHECK(found(long_line) == list{"mailto:jdoe@example.org"});
    // Exchange's message class, a URN that names no resource.
    CHECK(found("Content-Class: urn:content-classes:message\n").empty());
    // A git trailer lists URLs under the name of a mail header.
    CHECK(found("    References: http://err.no/personal/blog/2008/Mar/25\n") ==
          list{"http://err.no/personal/blog/2008/Mar/25"});
    // A spelled-out address that starts its (indented) line, from a changelog.
    CHECK(found("    line and symbol drawing characters.  Also a patch from\n"
                "    k-yosino at inatori.netsweb.ne.jp forcing a flush when disabling\n")
              .empty());
    CHECK(found("Questions to <jdoe at example.edu> please.\n").empty());
    // At the start of a line, a signature's (a list archive's spelling).
    CHECK(found("--\nkeith.packard at intel.com\n").empty());
    CHECK(found("keith.packard at intel.com\n").empty());
    // Past the context kept of a long line: still its own word.
    CHECK(found(std::string(70, 'x') + " keith.packard at intel.com\n").empty());
    // `at` in brackets: the AUTHOR sections of sysstat(5) and of userdel(8)
    // in Turkish.
    CHECK(found("       Sebastien Godard (sysstat <at> orange.fr)\n").empty());
    CHECK(found("       Julianne  Frances  Haugh  <jockgrrl  (at)   ix.netcom.com>   tarafından\n").empty());
    CHECK(found("Write to bob [AT] example.org or visit example.org.\n") == list{"http://example.org"});
    // Between dashes: util-linux's copyright file, cmake's AUTHORS.
    CHECK(found(" 2008 Roy Peled, the.roy.peled  -at-  gmail.com\n 2004-2006 Michael Holzt, kju -at- fqdn.org\n")
              .empty());
    CHECK(found("       Jan Woetzel <jw -at- mip.informatik.uni-kiel.de>\n").empty());
    CHECK(found("a dash-at-the end, then example.org\n") == list{"http://example.org"});
    // A README's contact: joining the blanks would make xcbatlists.
    CHECK(found("  <mailto:xcb at lists.freedesktop.org>\n").empty());
    // A stray `<` lines before a `>` hides nothing between them.
    CHECK(found("    - fix x <y\n    - look at https://example.org/x\n    - offset >0\n") ==
          list{"https://example.org/x"});
    CHECK(found("Written by J. Doe (j.doe at example.edu).\n").empty());
    // A web address after "at" is still one.
    CHECK(found("The code is hosted at example.org now.\n") == list{"http://example.org"});
}

TEST_CASE("hosts of services other than the web are not completed to http://", "[scanner][precision]") {
    CHECK(found("Join #debian on irc.oftc.net or irc.libera.chat.\n").empty());
    CHECK(found("  gpg --keyserver keys.openpgp.org --recv-keys 0x1234\n").empty());
    CHECK(found("Visit www.example.org and ftp.example.org.\n") ==
          list{"http://www.example.org", "ftp://ftp.example.org"});
}

TEST_CASE("link text in brackets after a URL is not part of it", "[scanner][precision]") {
    // AsciiDoc: URL[text].
    CHECK(found("See https://example.org/doc[the user guide] for more.\n") == list{"https://example.org/doc"});
    // A closed pair in the run stays, as peers and wikis expect.
    CHECK(found("See https://example.org/wiki/Blur_[band] now.\n") == list{"https://example.org/wiki/Blur_[band]"});
    // IPv6 hosts and PHP-style queries keep their brackets.
    CHECK(found("at http://[2001:db8::1]:8080/x now\n") == list{"http://[2001:db8::1]:8080/x"});
    CHECK(found("try http://example.org/q?a[]=1&a[]=2 now\n") == list{"http://example.org/q?a[]=1&a[]=2"});
}

TEST_CASE("URL: and a blank before a relative path", "[scanner][precision]") {
    // Relative references: found as written, resolved when there is a base.
    const std::string text = "Moved, URL: ../g and URL: ./h/i.\nURL: . Nothing.\n";
    CHECK(found(text) == list{"../g", "./h/i"});
    // Two prefixes: the second marks the reference, written at once or
    // after blanks, relative or absolute.
    CHECK(found("x URL:  URL:../g y\nx URL:URL:http://a.example/g y\nURL: url: http://b.example/\n") ==
          list{"../g", "http://a.example/g", "http://b.example/"});
    // In lower case the prefix is a key in code (jQuery's ajax settings in
    // Sphinx's static files): a URL with a scheme still follows it, a
    // property name does not.
    CHECK(found("\t\turl: location.href,\n\t\turl: \"https://example.org/api\",\n") ==
          list{"https://example.org/api"});
    // A bracket after the prefix holds the URL (a changelog's
    // `- url: (https://...)`).
    CHECK(found("See URL: (https://example.org/a) and URL: [../g].\n") == list{"https://example.org/a"});
}

TEST_CASE("a URL's syntax written with placeholders is no URL", "[scanner][precision]") {
    // ssh(1), git-fetch(1), sources.list(5): brackets in a site hold an IP
    // literal only, and a port is digits (Section 3.2).
    CHECK(found("     ssh://[user@]hostname[:port].  The user must prove\n").empty());
    CHECK(found("       •   git://host.xz[:port]/path/to/repo.git/\n").empty());
    CHECK(found("           http://user:pass@server:port/. The authentication\n").empty());
    // An IP literal and a port in digits are a URL.
    CHECK(found("Try http://[2001:db8::1]:8080/status now.\n") == list{"http://[2001:db8::1]:8080/status"});
}

TEST_CASE("the rest of a word groff hyphenated is no host of its own", "[scanner][precision]") {
    // curl(1): NO_PROXY=di‐ / rect.example.com, and "ex‐ / ample.org".
    CHECK(found("              NO_PROXY=di\u2010\n              rect.example.com  curl\n").empty());
    CHECK(found("              full host name such as \"ex\u2010\n              ample.org\".\n").empty());
    // A host at the start of a line after an ordinary one is still found.
    CHECK(found("              mirrors:\n              www.example.org\n") == list{"http://www.example.org"});
}

TEST_CASE("host names in a hosts table are hosts, not sites", "[scanner][precision]") {
    // hosts(5).
    CHECK(found("       127.0.1.1       thishost.example.org   thishost\n"
                "       146.82.138.7    master.debian.org      master\n"
                "       209.237.226.90  www.opensource.org\n"
                "       ::1             localhost ip6-localhost ip6-loopback\n")
              .empty());
}

TEST_CASE("an address given as a field's value is the value alone", "[scanner][precision]") {
    // openssl-req(1) and x509v3_config(5).
    CHECK(found("        emailAddress=someone@somewhere.org\n") == list{"mailto:someone@somewhere.org"});
    CHECK(found(" subjectAltName = email:copy, email:my@example.com, URI:http://my.example.com/\n") ==
          list{"mailto:my@example.com", "http://my.example.com/"});
    // user:password@host is a login, no address.
    CHECK(found("  ftp user:secret@ftp.example.org\n").empty());
    // A quoted value (gcloud's manual pages): the quote is no part of it.
    CHECK(found("           --notification_emails='foo@example.com, bar@example.com'\n") ==
          list{"mailto:foo@example.com", "mailto:bar@example.com"});
}

TEST_CASE("SSH algorithm and extension names are no mail addresses", "[scanner][precision]") {
    // ssh_config(5): a list of ciphers; sshd(8): a protocol extension.
    CHECK(found("                   aes128-gcm@openssh.com\n                   chacha20-poly1305@openssh.com\n").empty());
    CHECK(found("             \"hostkeys@openssh.com\" protocol extension used to inform the\n").empty());
    // Someone's address is still one.
    CHECK(found("Report bugs to openssh-unix-dev@mindrot.org.\n") == list{"mailto:openssh-unix-dev@mindrot.org"});
}

TEST_CASE("a shape to fill in is no address", "[scanner][precision]") {
    // gpg(1): a notation name "in the form keyname@domain.example.com",
    // hyphenated by groff across the line break.
    CHECK(found("              must contain a '@' character in  the  form  keyname@domain.exam\u2010\n"
                "              ple.com  (substituting  the appropriate keyname and domain name,\n")
              .empty());
    CHECK(found("Mirrors are named in the format ftp.example.org/pub/NAME.\n").empty());
    // The same word that is no cue: "a form at" leaves the site to the domain rule.
    CHECK(found("Fill in the form at www.example.org/join today.\n") == list{"http://www.example.org/join"});
}

TEST_CASE("a value to compare is no address", "[scanner][precision]") {
    // gitcredentials(7): a host name a configured pattern would match, next
    // to the scheme URLs of the same paragraph, which stay.
    CHECK(found("       because the hostnames differ. Nor would it match foo.example.com; Git\n"
                "       http://example.com would not match: Git compares the protocols exactly.\n") ==
          list{"http://example.com"});
    // curl(1) on --noproxy: the entries after the first are not cued.
    CHECK(found("              would match local.com, local.com:80, and  www.local.com,\n") ==
          list{"http://local.com:80", "http://www.local.com"});
    CHECK(found("Requests matching www.example.org/api/ are sent to the cache.\n").empty());
    // "a match at" is no cue either: the word must be right before the token.
    CHECK(found("See the match report on www.example.org/results today.\n") == list{"http://www.example.org/results"});
}

TEST_CASE("names in code are no sites: members set or compared, constants, DNS zones", "[scanner][precision]") {
    // The example code of printf.h(3head) and of polkit(8).
    CHECK(found("           pad.ch = pad_ch(info);\n           if (pad.ch == ' ')\n").empty());
    CHECK(found("                       return polkit.Result.NO;\n").empty());
    CHECK(found("my %hosts = ('db.example.org' => 1);\nif (host.example.org != peer)\n").empty());
    // resolver(5): zones of the DNS itself.
    CHECK(found("       reverse IPv6 lookups are made in the ip6.arpa zone, IPv4 ones in in-addr.arpa.\n").empty());
    // resolver(3): the zone the reverse lookups used before RFC 3152.
    CHECK(found("              Use ip6.arpa zone in IPv6 reverse  lookup  instead  of  ip6.int,\n").empty());
    CHECK(found("see www.ip6.int/ and itu.int\n") == list{"http://www.ip6.int/", "http://itu.int"});
    // A site before an `=` on the next line, or in capitals, stays one.
    CHECK(found("Visit example.org\n= Changes in 2.0 =\nand GOOGLE.COM today.\n") ==
          list{"http://example.org", "http://GOOGLE.COM"});
    CHECK(found("See www.example.org - or example.org/x -- for more.\n") ==
          list{"http://www.example.org", "http://example.org/x"});
}

TEST_CASE("the files a change log entry lists are no sites", "[scanner][precision]") {
    // GNU ChangeLogs of gdb and gcc (Ada) in /usr/share/doc.
    CHECK(found("\t* make-all.com: Remove.\n").empty());
    CHECK(found("\t* setup.com (mpw): Remove unused directive.\n").empty());
    CHECK(found("\t* sinfo.ads, einfo.ads, restrict.ads: Minor reformatting.\n").empty());
    CHECK(found("  * apt.postgresql.org.sh: Support Debian trixie.\n").empty());
    // A path in the list is a file's too: a directory named like a host
    // (glibc's Debian changelog, gcc's testsuite).
    CHECK(found("  * debian/debhelper.in/libc.postinst, script.in/nsscheck.sh: Look for\n").empty());
    CHECK(found("  * debhelper.in/libc.lintian-overrides, debhelper.in/libc.lintian-overrides,\n").empty());
    // Debian's nested bullet (glibc's changelog).
    CHECK(found("    - debhelper.in/libc.lintian-overrides, debhelper.in/libc.lintian-overrides,\n").empty());
    CHECK(found("\t* gcc.target/i386/pr87930.c: Move to ...\n").empty());
    // Not a list: no indentation, prose after the bullet, or a service
    // prefix.
    CHECK(found("* example.org: the project's site\n") == list{"http://example.org"});
    CHECK(found("- example.org: the project's site\n") == list{"http://example.org"});
    CHECK(found("  -- example.org: a rule, then a site\n") == list{"http://example.org"});
    CHECK(found("\t* Moved to example.org: see there.\n") == list{"http://example.org"});
    CHECK(found("\t* www.example.org: moved\n") == list{"http://www.example.org"});
    CHECK(found("\t* www.example.org/docs: moved\n") == list{"http://www.example.org/docs"});
    // A list longer than the context kept before a name is one still, read
    // whole or in pieces; prose that runs as long is prose still.
    CHECK(found("\t* a.c, b.c, c.c, d.c, e.c, f.c, g.c, h.c, i.c, j.c, k.c, l.c, m.c, example.org: x\n").empty());
    CHECK(found("\t* a.c, b.c, c.c, d.c, e.c, f.c, g.c, h.c, i.c, j.c, k.c and l.c, m.c, example.org: x\n") ==
          list{"http://example.org"});
}

TEST_CASE("the files a diffstat lists are no sites", "[scanner][precision]") {
    // fribidi's changelog in /usr/share/doc: git's diffstat of a commit.
    CHECK(found(" gen.tab/packtab.c | 34 +++++++++++++++++-----------------\n").empty());
    CHECK(found(" gen.tab/unidata/BidiBrackets.txt               |   6 +-\n").empty());
    CHECK(found(" notes.org | 318\n").empty());
    CHECK(found(" docs/example.org/logo | Bin 0 -> 1234 bytes\n").empty());
    // Not a diffstat: at the margin (a table row), prose before the name,
    // no count after the bar, or padding wider than a line's context.
    CHECK(found("example.org/y | 3 |\n") == list{"http://example.org/y"});
    CHECK(found(" see example.org/x | 3\n") == list{"http://example.org/x"});
    CHECK(found(" example.org/x | here\n") == list{"http://example.org/x"});
    CHECK(found(" example.org/x " + std::string(70, ' ') + "| 3 +\n") == list{"http://example.org/x"});
    // A service prefix is judged as usual.
    CHECK(found(" www.example.org/index.html | 2 +-\n") == list{"http://www.example.org/index.html"});
}

TEST_CASE("the file a DejaGnu log names after a result is no site", "[scanner][precision]") {
    // gdb's check.log in /usr/share/doc: every test's result, then its file.
    CHECK(found("PASS: gdb.tui/basic.exp: set pagination off\n").empty());
    CHECK(found("PASS: gdb.cp/classes.exp: print bar.st\n").empty());
    CHECK(found("XFAIL: gdb.base/foo.exp: x\nUNSUPPORTED: gdb.tui/new-layout.exp: y\n").empty());
    // In capitals only, and only at the line's start.
    CHECK(found("Pass: see example.org/x now\n") == list{"http://example.org/x"});
    CHECK(found("it did PASS: example.org/x\n") == list{"http://example.org/x"});
}

TEST_CASE("Latin et al. without its space is no site", "[scanner][precision]") {
    // Changelogs of gdb and libksba in /usr/share/doc.
    CHECK(found("Do not use strsave(), instead use xstrdup() et.al.\n").empty());
    CHECK(found("\t* m4/gcov.m4: new file. Boilerplate for locating gcov et.al.\n").empty());
    CHECK(found("better LR/MS handling for fatboy.wav et.al., this is not\n").empty());
    // A path makes it an address again.
    CHECK(found("See et.al/papers for the list.\n") == list{"http://et.al/papers"});
}

TEST_CASE("file names whose extension is a TLD are no sites", "[scanner][precision]") {
    // Changelogs and manuals in /usr/share/doc and section 5 and 8 pages.
    CHECK(found("      when linux.cf is parsed.)\n    - vmlinux.lds: Ensure that const vars\n").empty());
    // tzdata's NEWS, e2fsprogs' and Node's docs: tables, CoffeeScript.
    CHECK(found("Add info about the Crimea situation in zone1970.tab and zone.tab.\n").empty());
    CHECK(found("The blkid library will override the default location of the blkid.tab\n").empty());
    CHECK(found("# main.coffee\n").empty());
    // cmake-generators(7): Ninja's build files; cmake-commands(7): CUDA sources.
    CHECK(found("         add_library(myptx OBJECT a.cu b.cu)\n").empty());
    CHECK(found("       Generates build.ninja files.\n       ninja -f build-Release.ninja generated\n").empty());
    CHECK(found("\tattribute names in mpfr.h (see README.dev).\n").empty());
    CHECK(found("    - Regenerate xnn BUILD.gn\n\t* HACKING, Makefile.MSVC, Makefile.am.global, Makefile.unix,\n").empty());
    CHECK(found("        * systemd.network files gained a [Network] RouteTable= option\n").empty());
    CHECK(found("  * Add a krb5-user.news for single DES going away\n").empty());
    CHECK(found("- In the init routine, set hdr.pid to current process\n").empty());
    CHECK(found("      XTerm-col.ad.  (Closes: #255070)\n").empty());
    // A build file in lower case, and a path of build files.
    CHECK(found("on Apple Macintosh.  makefile.dj has been updated for DJGPP v2\n").empty());
    CHECK(found("\t* 35255: configure.sc, Doc/Makefile.in: if available\n").empty());
    // A member after `->` or a name after `::`.
    CHECK(found("    BTW: what is the difference between XIM (the type of ic->core.im)\n").empty());
    CHECK(found("\trather than thr->ts.team != NULL, and Foo::bar.info\n").empty());
    // A weak cue does not make a unit or a file a site.
    CHECK(found("    systemd-pstore from sysinit.target\n    - Move AT_TESTED to testsuite.at.\n").empty());
    // Register flags and a notice file in capitals.
    CHECK(found("    x86: clear RFLAGS.CF and check CR0.PG; see COPYRIGHT.IBM\n").empty());
    // Sites stay: in capitals under a historic TLD or after a cue, and a
    // file stem's name in lower case.
    CHECK(found("Visit SPIEGEL.DE or GOOGLE.COM.\n") == list{"http://SPIEGEL.DE", "http://GOOGLE.COM"});
    CHECK(found("Docs are hosted on readme.io now.\n") == list{"http://readme.io"});
}

TEST_CASE("a host name in quotes is a value, not a site", "[scanner][precision]") {
    // mailaddr(7), a README on cookie domains (typographic quotes: groff).
    CHECK(found("       The  domain  part (\"monet.example.com\") is a mail-accepting domain.  It\n").empty());
    CHECK(found("    machines \u201Cshop.capricorn.com\u201D, \u2018feckless.capricorn.com\u2019, etc.\n").empty());
    CHECK(found("    The 'backzone' and `zone.tab' files did not agree\n").empty());
    // Marked as code: Markdown and reStructuredText in Python's and git's
    // NEWS, Node's API docs (git configuration, a module, a property).
    CHECK(found("  `safe.directory` to override this behaviour, or use '*' to declare\n").empty());
    CHECK(found("- Patch vendored html5lib, to prefer using `collections.abc` where possible.\n").empty());
    CHECK(found("  documentation, mostly replacing outdated references to ``dateutil.tz``.\n").empty());
    CHECK(found("- bpo-37212: :func:`unittest.mock.call` now preserves the order of keyword\n").empty());
    CHECK(found("   \"desc\": \"e.g. `example.com`\"\n").empty());
    // A path, a service prefix or an address in quotes is still a link;
    // so is a host with one mark on one side only.
    CHECK(found("A link in 'singlequote.club/wat' extra fluff\n") == list{"http://singlequote.club/wat"});
    CHECK(found("The archive is \"www.ijg.org\".\n") == list{"http://www.ijg.org"});
    CHECK(found("please report any bugs to \"bug-wget@gnu.org\".\n") == list{"mailto:bug-wget@gnu.org"});
    CHECK(found("Alternatively, send patches to `freetype-devel@nongnu.org`\n") ==
          list{"mailto:freetype-devel@nongnu.org"});
    CHECK(found("see `www.gnu.org` and `example.org/docs`\n") == list{"http://www.gnu.org", "http://example.org/docs"});
    CHECK(found("the site `example.org and more`\n") == list{"http://example.org"});
}

TEST_CASE("a URL's site or path named again after it is no new link", "[scanner][precision]") {
    // wget(1), --cut-dirs: the directory wget makes from the URL, and its
    // first part.
    const std::string wget = "           Take, for example, the directory at\n"
                             "           ftp://ftp.xemacs.org/pub/xemacs/.  If you retrieve it with -r, it\n"
                             "           will be saved locally under ftp.xemacs.org/pub/xemacs/.  While the\n"
                             "           -nH option can remove the ftp.xemacs.org/ part, you are still stuck\n";
    CHECK(found(wget) == list{"ftp://ftp.xemacs.org/pub/xemacs/"});
    // A longer path, another label boundary, or the name before the URL is new.
    CHECK(found("at https://www.gnu.org/ and www.gnu.org/software/ too\n") ==
          list{"https://www.gnu.org/", "http://www.gnu.org/software/"});
    CHECK(found("at https://www.gnu.org.uk/ and www.gnu.org too\n") ==
          list{"https://www.gnu.org.uk/", "http://www.gnu.org"});
    CHECK(found("www.gnu.org: https://www.gnu.org/\n") == list{"http://www.gnu.org", "https://www.gnu.org/"});
    // Written differently but the same in normal form (Section 6).
    CHECK(found("at HTTPS://WWW.GNU.ORG:443/%7ejoe/ and www.gnu.org:443/~joe/\n") ==
          list{"HTTPS://WWW.GNU.ORG:443/%7ejoe/"});
    // Five lines below the URL, a name is a link again.
    std::string far = "see https://www.gnu.org/\n";
    for (int i = 0; i < 4; ++i) far += "more text\n";
    CHECK(found(far + "then www.gnu.org\n") == list{"https://www.gnu.org/"});
    CHECK(found(far + "more text\nthen www.gnu.org\n") == list{"https://www.gnu.org/", "http://www.gnu.org"});
}
