// Section 7 (Security Considerations) warnings: ports of another protocol,
// escaped CR/LF, passwords in the site component.

#include <urlsift/warnings.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

using urlsift::security_warnings;
using urlsift::url_warning;

namespace {

/// The names of `ws`, comma-separated, for readable failures.
std::string names(const std::vector<url_warning>& ws) {
    std::string s;
    for (const auto w : ws) {
        if (!s.empty()) s += ',';
        s += urlsift::to_string(w);
    }
    return s;
}

void check(std::string_view url, std::initializer_list<url_warning> expected) {
    // Exact-size heap copy: sanitizers see an over-read past the end.
    const auto copy = std::make_unique<char[]>(url.size());
    std::memcpy(copy.get(), url.data(), url.size());
    const std::string_view view(copy.get(), url.size());
    INFO("url: " << url);
    CHECK(names(security_warnings(view)) == names(std::vector<url_warning>(expected)));
}

constexpr auto password = url_warning::password_in_userinfo;
constexpr auto non_default = url_warning::non_default_port;
constexpr auto reserved = url_warning::reserved_port;
constexpr auto crlf = url_warning::escaped_crlf;
constexpr auto script = url_warning::script_scheme;

}  // namespace

TEST_CASE("warning names are stable", "[warnings]") {
    CHECK(urlsift::to_string(password) == "password-in-userinfo");
    CHECK(urlsift::to_string(non_default) == "non-default-port");
    CHECK(urlsift::to_string(reserved) == "reserved-port");
    CHECK(urlsift::to_string(crlf) == "escaped-crlf");
    CHECK(urlsift::to_string(script) == "script-scheme");
}

TEST_CASE("Section 7: a URL that runs a script instead of naming a resource", "[warnings][spec]") {
    check("javascript:alert(1)", {script});
    check("JavaScript:void(0)", {script});
    check("vbscript:msgbox", {script});
    check("javascript://x/%0Aalert(1)", {crlf, script});
    check("http://example.org/javascript:x", {});
    check("java:script", {});
}

TEST_CASE("Section 7: ordinary URLs get no warning", "[warnings][spec]") {
    check("http://www.w3.org/Addressing/", {});
    check("https://example.org/a?b#c", {});
    check("ftp://ftp.is.co.za/rfc/rfc1808.txt", {});
    check("mailto:mduerst@ifi.unizh.ch", {});
    check("news:comp.infosystems.www.servers.unix", {});
    check("file:///etc/passwd", {});
    check("urn:isbn:0-395-36341-1", {});
    check("", {});
    check("http:", {});
    check("http://", {});
}

TEST_CASE("Section 7: a port other than the protocol's default", "[warnings][spec]") {
    // The spec's example: a gopher URL sent to an SMTP server.
    check("gopher://mail.example.org:25/xHELO%20evil", {non_default, reserved});
    check("http://example.org:8080/", {non_default});
    check("https://example.org:80/", {non_default, reserved});
    check("http://example.org:1023/", {non_default, reserved});
    check("http://example.org:1024/", {non_default});
    check("http://example.org:0/", {non_default, reserved});
    check("http://example.org:99999/", {non_default});
    check("http://example.org:123456789012345678901234567890/", {non_default});
    check("telnet://host:110", {non_default, reserved});
    check("ftp://host:2121/pub", {non_default});
    // Scheme case does not matter (Section 4.1).
    check("HTTP://example.org:25/", {non_default, reserved});
    // IPv6 literal: the colons inside the brackets are not a port.
    check("http://[::1]:25/", {non_default, reserved});
    check("http://[2001:db8::7]/", {});
    check("http://[2001:db8::7]:80/", {});
}

TEST_CASE("Section 7: the default port, an empty port or none is fine", "[warnings][spec]") {
    check("http://example.org:80/", {});
    check("http://example.org:0080/", {});
    check("http://example.org:/", {});
    check("gopher://gopher.example:70/", {});
    check("nntp://news.example:119/comp.lang", {});
    check("https://example.org:443?q", {});
    check("http://example.org#:25", {});
    check("http://example.org/a:25", {});
    // A port that is not a number is the resolver's to reject.
    check("http://example.org:http/", {});
    check("http://example.org:25x/", {});
}

TEST_CASE("Section 7: schemes without a known default port are not judged", "[warnings][spec]") {
    check("svn://example.org:3690/repo", {});
    check("foo://example.org:25/", {});
    check("averyveryverylongschemename://example.org:25/", {});
    // No scheme, no default: a network-path reference.
    check("//example.org:25/", {});
}

TEST_CASE("Section 7: escaped CR and LF are flagged, never decoded", "[warnings][spec]") {
    check("telnet://host/%0D%0AQUIT", {crlf});
    check("http://example.org/a%0ab", {crlf});
    check("http://example.org/a%0db", {crlf});
    check("http://example.org/?q=%0A", {crlf});
    check("http://example.org/#%0D", {crlf});
    check("http://us%0Der@example.org/", {crlf});
    check("mailto:a@example.org?body=%0D%0ABcc:%20b@example.org", {crlf});
    // Other escapes, incomplete ones and an escaped percent sign are not CR/LF.
    check("http://example.org/%09%20%0B%0C%0E", {});
    check("http://example.org/%0", {});
    check("http://example.org/%", {});
    check("http://example.org/%250D", {});
    check("http://example.org/0D0A", {});
}

TEST_CASE("Section 7: a password in the site component", "[warnings][spec]") {
    check("ftp://anonymous:secret@ftp.example.org/", {password});
    check("http://user:p%40ss@example.org/", {password});
    check("http://a@b:c@example.org/", {password});
    // A user name alone, or an empty password, reveals no secret.
    check("ftp://anonymous@ftp.example.org/", {});
    check("ftp://anonymous:@ftp.example.org/", {});
    check("http://@example.org/", {});
    // Outside the site: a colon in a path, a query or a mailto address.
    check("mailto:user:secret@example.org", {});
    check("http://example.org/user:secret@x", {});
    check("http://example.org/?u=user:secret@x", {});
}

TEST_CASE("Section 7: several warnings come in enumerator order", "[warnings][spec]") {
    check("ftp://user:pw@host:25/%0D%0A", {password, non_default, reserved, crlf});
    check("HTTP://user:pw@[::1]:8080/", {password, non_default});
}
