// Splitting the site component (Section 3.2 and 4.3.1 of 001_*.txt):
//     site = [ [ userinfo ] "@" ] host [ ":" port ]
// One row per case: undefined is kept apart from empty, as Section 5.2's
// closing note asks of every component.

#include "uri/site.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

using urlsift::detail::read_port;
using urlsift::detail::split_site;

namespace {

constexpr std::optional<std::string_view> undefined = std::nullopt;

void check(std::string_view site, std::optional<std::string_view> userinfo, std::string_view host,
           std::optional<std::string_view> port) {
    INFO("site: " << site);
    const auto p = split_site(site);
    CHECK(p.host_ok());
    CHECK(p.userinfo == userinfo);
    CHECK(p.host == host);
    CHECK(p.port == port);
    CHECK(site.substr(p.host_offset, host.size()) == host);
}

}  // namespace

TEST_CASE("site: userinfo, host and port", "[uri][site]") {
    check("www.ics.uci.edu", undefined, "www.ics.uci.edu", undefined);
    check("www.ics.uci.edu:80", undefined, "www.ics.uci.edu", "80");
    check("host:", undefined, "host", "");
    check("user@host", "user", "host", undefined);
    check("user:pass@host:8080", "user:pass", "host", "8080");
    check("@host", "", "host", undefined);
    check("a@b@host", "a@b", "host", undefined);  // the last `@` ends the userinfo
    check("", undefined, "", undefined);
    check("[::1]", undefined, "[::1]", undefined);
    check("[::1]:80", undefined, "[::1]", "80");
    check("u@[fe80::1%25eth0]:", "u", "[fe80::1%25eth0]", "");
    check("h%C3%A9:1", undefined, "h%C3%A9", "1");
    check("a:b:c", undefined, "a:b", "c");  // a reg-name may hold anything; the last `:` starts the port
}

TEST_CASE("site: a malformed IP literal says where", "[uri][site]") {
    CHECK(split_site("[::1").bad_host_at == 0);
    CHECK(split_site("u@[::1").bad_host_at == 2);
    CHECK(split_site("[::1]x").bad_host_at == 5);
}

TEST_CASE("site: port digits", "[uri][site]") {
    CHECK(read_port("80").ok());
    CHECK(read_port("80").value == 80);
    CHECK(read_port("").ok());
    CHECK(read_port("").digits == 0);
    CHECK(read_port("65535").value == 65535);
    CHECK(read_port("65536").out_of_range);
    CHECK(read_port("65536").bad_at == 0);
    CHECK(read_port("8x").bad_at == 1);
    CHECK_FALSE(read_port("8x").out_of_range);
}
