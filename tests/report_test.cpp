// The report: host signals, exact merging of any split, interleaving,
// the distinct-URL sketch, and counting a URL again, in a batch or among
// many keys (report_cli_test.cpp: `urlsift report` and its JSON).

#include "report_util.hpp"

#include <urlsift/report.hpp>
#include <urlsift/scanner.hpp>

#include "report/url_sketch.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using urlsift::report;
using urlsift::report_table;
using urlsift::test::count_of;
using urlsift::test::numbered_urls;

}  // namespace

TEST_CASE("report: host signals", "[report]") {
    using urlsift::is_ip_host;
    using urlsift::is_punycode_host;
    using urlsift::registrable_domain;
    CHECK(registrable_domain("www.w3.org") == "w3.org");
    CHECK(registrable_domain("w3.org") == "w3.org");
    CHECK(registrable_domain("w3.org.") == "w3.org");
    CHECK(registrable_domain("a.b.example.COM") == "example.COM");
    // Under a country code, the common second levels are suffixes too.
    CHECK(registrable_domain("www.bbc.co.uk") == "bbc.co.uk");
    CHECK(registrable_domain("iitb.ac.in") == "iitb.ac.in");
    CHECK(registrable_domain("example.org.uk") == "example.org.uk");
    CHECK(registrable_domain("org").empty());
    CHECK(registrable_domain("localhost").empty());
    CHECK(registrable_domain("build.internal").empty());
    CHECK(registrable_domain("a..org").empty());
    CHECK(registrable_domain("192.168.0.1").empty());
    CHECK(registrable_domain("[::1]").empty());

    CHECK(is_ip_host("[2001:db8::1]"));
    CHECK(is_ip_host("192.168.0.1"));
    CHECK(is_ip_host("0x7f.1"));
    CHECK(is_ip_host("3232235521"));
    CHECK(is_ip_host("1.2.3.4."));
    CHECK_FALSE(is_ip_host("www.w3.org"));
    CHECK_FALSE(is_ip_host("1.2.3.example"));
    CHECK_FALSE(is_ip_host(""));

    CHECK(is_punycode_host("xn--bcher-kva.ch"));
    CHECK(is_punycode_host("www.XN--80ak6aa92e.com"));
    CHECK_FALSE(is_punycode_host("xnx--a.com"));
    CHECK_FALSE(is_punycode_host("www.example.com"));
}

TEST_CASE("report: look-alike hosts by ICU's spoof checker", "[report]") {
    using urlsift::is_lookalike_host;
    // Cyrillic "аррӏе": one script, but its skeleton is the ASCII "apple".
    CHECK(is_lookalike_host("xn--80ak6aa92e.com"));
    CHECK(is_lookalike_host("www.XN--80AK6AA92E.com"));
    // "pаypal" with a Cyrillic а: Latin and Cyrillic mixed in one label,
    // written as an A-label or in Unicode.
    CHECK(is_lookalike_host("xn--pypal-4ve.com"));
    CHECK(is_lookalike_host("p\xD0\xB0ypal.com"));
    // Names in one script that spell no ASCII word pass.
    CHECK_FALSE(is_lookalike_host("xn--bcher-kva.ch"));          // bücher
    CHECK_FALSE(is_lookalike_host("xn--fiqs8s"));                // 中国
    CHECK_FALSE(is_lookalike_host("xn--e1afmkfd.xn--p1ai"));     // пример.рф
    CHECK_FALSE(is_lookalike_host("www.example.com"));
    CHECK_FALSE(is_lookalike_host("xn--zz"));                    // not a valid A-label: nothing to judge
    CHECK_FALSE(is_lookalike_host(""));
}

TEST_CASE("report: merge is exact in the library", "[report]") {
    // Every split point of a run of inputs, merged by copy and by move.
    const std::vector<std::string> texts = {
        "a http://x.example/1 and http://x.example/2\n",
        "b <http://y.example/> http://x.example/1\nc http://x.example/1\n",
        "nothing\n",
        "d http://x.example/2 <../g> and <../g>\n",
        "e http://[::1]:8080/ http://y.example/\n",
    };
    const auto aggregate = [&](std::size_t from, std::size_t to) {
        report r;
        for (std::size_t i = from; i < to; ++i) {
            const auto in = r.add_input("t" + std::to_string(i));
            for (const auto& ref : urlsift::scan(texts[i])) r.add(in, ref);
            r.finish_input(in, texts[i].size(), urlsift::input_status::read);
        }
        return r;
    };
    const report whole = aggregate(0, texts.size());
    CHECK(whole.references() == 10);
    CHECK(whole.rows(report_table::url, 0, 2).size() == 3);
    for (std::size_t cut = 0; cut <= texts.size(); ++cut) {
        CAPTURE(cut);
        CHECK(urlsift::merge(aggregate(0, cut), aggregate(cut, texts.size())) == whole);
        report moved = aggregate(0, cut);
        moved.merge(aggregate(cut, texts.size()));
        CHECK(moved == whole);
    }
    const report three = urlsift::merge(urlsift::merge(aggregate(0, 1), aggregate(1, 4)), aggregate(4, 5));
    CHECK(three == whole);
}

namespace {

/// The report over the inputs `which` of `texts`, in that order: what a
/// thread that took them counts.
report counted_inputs(const std::vector<std::string>& texts, const std::vector<std::uint64_t>& which) {
    report r;
    for (const std::uint64_t i : which) {
        const auto in = r.add_input("t" + std::to_string(i));
        for (const auto& ref : urlsift::scan(texts[i])) r.add(in, ref);
        r.finish_input(in, texts[i].size(), urlsift::input_status::read);
    }
    return r;
}

}  // namespace

TEST_CASE("report: counts never wrap: a sum past 2^64 - 1 is refused and changes nothing",
          "[report][merge][regression]") {
    constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    // A report as read back from a partial: its counts added whole.
    const auto part = [](std::string_view host, std::uint64_t count, std::uint64_t references = 1) {
        report r;
        r.add_input(urlsift::report_input{.name = "p", .bytes = 10, .references = references,
                                          .status = urlsift::input_status::read, .error = {}});
        r.add_count(report_table::host, host, count, {0, 1});
        return r;
    };
    // The same key: its count would wrap to 0 and the row vanish.
    report big = part("a.example", max);
    const report before = big;
    CHECK_THROWS_WITH(big.merge(part("a.example", 1)),
                      Catch::Contains("the counts of table \"host\" would pass 18446744073709551615"));
    CHECK(big == before);
    // Two keys: each count fits, their table's total does not.
    CHECK_THROWS_AS(big.merge(part("b.example", 1)), std::overflow_error);
    CHECK(big == before);
    // References and bytes too.
    report many = part("a.example", 1, max);
    CHECK_THROWS_WITH(many.merge(part("b.example", 1)), Catch::Contains("the number of references would pass"));
    CHECK_THROWS_AS(many.add_input(urlsift::report_input{.name = "q", .bytes = 0, .references = 1,
                                                         .status = urlsift::input_status::read, .error = {}}),
                    std::overflow_error);
    CHECK(many.inputs().size() == 1);
    // Within one report read back: a key counted twice past the limit.
    report twice = part("a.example", max);
    CHECK_THROWS_WITH(twice.add_count(report_table::host, "a.example", 1, {0, 2}),
                      Catch::Contains("the count of \"a.example\" in table \"host\""));
    CHECK(count_of(twice, report_table::host, "a.example") == max);
    // Up to the limit is fine, and merging many reports stays exact.
    report sum = part("a.example", max - 2);
    sum.merge(part("a.example", 1));
    sum.merge(part("a.example", 1));
    CHECK(count_of(sum, report_table::host, "a.example") == max);
    CHECK(sum.total(report_table::host) == max);
}

TEST_CASE("report: distinct URLs past the limit are counted by a sketch", "[report]") {
    // 20 inputs of 1000 URLs, the first 700 of each new: 14,300 distinct.
    const report exact = numbered_urls(0, 20, 20000);
    REQUIRE(exact.distinct_urls().exact);
    CHECK(exact.distinct_urls().count == 14300);
    CHECK(exact.distinct(report_table::url, 2) == 19 * 300);

    const report sketched = numbered_urls(0, 20, 14299);
    const auto urls = sketched.distinct_urls();
    CHECK_FALSE(urls.exact);
    CHECK(urls.relative_error == Approx(0.0081).epsilon(0.01));
    // Within three standard errors of the truth.
    CHECK(std::abs(static_cast<double>(urls.count) - 14300.0) < 3 * urls.relative_error * 14300.0);
    CHECK(sketched.rows(report_table::url).empty());
    CHECK(sketched.url_sketch().size() == 16384);
    // Only the URL set changes: the other tables stay exact.
    const auto hosts = [](const report& r) {
        std::vector<std::pair<std::string, std::uint64_t>> out;
        for (const auto& row : r.rows(report_table::host)) out.emplace_back(row.key, row.count);
        return out;
    };
    CHECK(hosts(sketched) == hosts(exact));
    CHECK(sketched.references() == exact.references());

    // Exactly at the limit the count is still exact.
    CHECK(numbered_urls(0, 20, 14300).distinct_urls().exact);

    // A larger set, for the estimate's accuracy where the sketch is meant
    // to work: 200,000 distinct URLs.
    const report big = numbered_urls(0, 200, 1000, 1000, 1000);
    const auto b = big.distinct_urls();
    CHECK_FALSE(b.exact);
    CHECK(std::abs(static_cast<double>(b.count) - 200000.0) < 3 * b.relative_error * 200000.0);
}

TEST_CASE("report: inputs counted in turns interleave into one run's report", "[report]") {
    // What threads do: each counts the inputs it takes into a report of
    // its own; put back in input order, they give the one run's report.
    const std::vector<std::string> texts = {
        "a http://x.example/1 and http://x.example/2\n", "b <http://y.example/> http://x.example/1\n",
        "nothing\n", "d http://x.example/2 <../g> and <../g>\n", "e http://[::1]:8080/ http://y.example/\n",
        "f http://y.example/ http://z.example/3\n"};
    const auto counted = [&](const std::vector<std::uint64_t>& which) { return counted_inputs(texts, which); };
    const report whole = counted({0, 1, 2, 3, 4, 5});
    const std::vector<std::vector<std::vector<std::uint64_t>>> splits = {
        {{0, 1, 2, 3, 4, 5}}, {{0, 2, 4}, {1, 3, 5}}, {{1, 2}, {0, 5}, {3, 4}}, {{}, {5}, {0, 1, 2, 3, 4}}};
    for (const auto& split : splits) {
        std::vector<report> parts;
        for (const auto& which : split) parts.push_back(counted(which));
        CHECK(report::interleave(std::move(parts), split) == whole);
    }
    // Distinct URLs past the limit in some parts only: a sketch, as one run.
    const report sketched = numbered_urls(0, 6, 3000);
    REQUIRE_FALSE(sketched.distinct_urls().exact);
    std::vector<report> two;
    for (const auto& which : {std::vector<std::size_t>{0, 2, 3}, std::vector<std::size_t>{1, 4, 5}}) {
        report part(3000);
        for (const std::size_t i : which) part.merge(numbered_urls(i, i + 1, 3000));
        REQUIRE(part.distinct_urls().exact);
        two.push_back(std::move(part));
    }
    CHECK(report::interleave(std::move(two), {{0, 2, 3}, {1, 4, 5}}) == sketched);
    // Ordinals that are not 0 to n-1 once each, in order within a part.
    const auto bad = [&](std::vector<std::vector<std::uint64_t>> ordinals) {
        std::vector<report> ps;
        for (const auto& which : ordinals) ps.push_back(counted(std::vector<std::uint64_t>(which.size(), 2)));
        return report::interleave(std::move(ps), ordinals);
    };
    CHECK_THROWS_AS(bad({{0, 1}, {1, 2}}), std::invalid_argument);
    CHECK_THROWS_AS(bad({{0, 3}}), std::invalid_argument);
    CHECK_THROWS_AS(bad({{1, 0}}), std::invalid_argument);
}

TEST_CASE("report: the steps of an interleaving, in any order and on threads, give interleave's report",
          "[report]") {
    // Parts with URLs, hosts, relative references and a sketch in one of
    // them: every kind of step has something to do.
    const std::vector<std::string> texts = {
        "a http://x.example/1 <../up> http://[::1]/\n", "b http://y.example/ http://x.example/1\n",
        "c <http://x.example/2> <../up>\n", "d https://z.example/?q http://y.example/\n"};
    const auto counted = [&](const std::vector<std::uint64_t>& which) { return counted_inputs(texts, which); };
    const std::vector<std::vector<std::uint64_t>> split = {{0, 3}, {1}, {2}};
    const auto parts = [&] {
        std::vector<report> ps;
        for (const auto& which : split) ps.push_back(counted(which));
        return ps;
    };
    const report whole = counted({0, 1, 2, 3});
    REQUIRE(report::interleave(parts(), split) == whole);

    report::interleaving backwards(parts(), split);
    REQUIRE(backwards.steps() == urlsift::report_table_count + 1);
    for (std::size_t i = backwards.steps(); i-- > 0;) backwards.run(i);
    CHECK(std::move(backwards).result() == whole);

    report::interleaving shared(parts(), split);
    std::atomic<std::size_t> next{0};
    const auto take_steps = [&] {
        for (std::size_t i = next++; i < shared.steps(); i = next++) shared.run(i);
    };
    std::thread other(take_steps);
    take_steps();
    other.join();
    CHECK(std::move(shared).result() == whole);

    CHECK_THROWS_AS(report::interleaving(parts(), {{0, 3}, {1}}), std::invalid_argument);
}

TEST_CASE("report: merging sketches of any split equals one run", "[report]") {
    // Limit 5000: each part alone is exact, or already a sketch, or becomes
    // one only when merged; the result is the one run's either way.
    const std::size_t n = 14;
    const report whole = numbered_urls(0, n, 5000);
    REQUIRE_FALSE(whole.distinct_urls().exact);
    for (const std::size_t shards : {2U, 3U, 7U}) {
        CAPTURE(shards);
        report merged(5000), moved(5000);
        for (std::size_t s = 0; s < shards; ++s) {
            const report part = numbered_urls(s * n / shards, (s + 1) * n / shards, 5000);
            merged.merge(part);
            moved.merge(numbered_urls(s * n / shards, (s + 1) * n / shards, 5000));
        }
        CHECK(merged == whole);
        CHECK(moved == whole);
    }
    // Every cut of two.
    for (std::size_t cut = 0; cut <= n; ++cut) {
        CAPTURE(cut);
        CHECK(urlsift::merge(numbered_urls(0, cut, 5000), numbered_urls(cut, n, 5000)) == whole);
    }
}

TEST_CASE("report: the sketch's hash is the same in every build", "[report]") {
    // Partial reports made on other machines are merged register by
    // register, so the hash must not depend on the platform or the
    // library. The values come from a separate implementation of the
    // same definition (bytes read little-endian, eight at a time).
    using urlsift::detail::stable_hash;
    CHECK(stable_hash("") == 0x9ca066f1a4ab2eeaULL);
    CHECK(stable_hash("a") == 0xc71b8372863aba34ULL);
    CHECK(stable_hash("12345678") == 0xa3c63741e1a72d9cULL);
    CHECK(stable_hash("http://www.w3.org/Addressing/") == 0xd1d3695c5a540b67ULL);
    CHECK(stable_hash("http://b\xc3\xbc" "cher.example/\xc3\xa9") == 0xb8637138c15576baULL);
}

TEST_CASE("report: anchor text that names another site, gateways and MIME parts", "[report]") {
    report r;
    const auto in = r.add_input("m.eml");
    const auto link = [&](const std::string& url, std::string_view text, std::string_view kind) {
        urlsift::found_reference ref;
        ref.url = url;
        ref.line = 1;
        r.add(in, ref, {.part_kind = kind, .anchor_text = text});
    };
    link("http://login.evil.example/paypal", "www.paypal.com", "text/html");      // another site
    link("https://www.paypal.com/signin", "PayPal.com sign-in", "text/html");     // its own, in another case
    link("https://mail.example.co.uk/x", "https://www.example.co.uk/", "text/html"); // same registrable domain
    link("http://192.0.2.7/", "https://bank.example.com/", "text/html");          // an IP address
    link("https://docs.example.com/", "here", "text/html");                       // names no site
    link("https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2F&data=05", "", "text/plain");
    link("https://lists.example.org/unsub", "", "header");
    const auto keys = [&](report_table t) {
        std::vector<std::pair<std::string, std::uint64_t>> out;
        for (const auto& row : r.rows(t)) out.emplace_back(row.key, row.count);
        return out;
    };
    using rows = std::vector<std::pair<std::string, std::uint64_t>>;
    CHECK(keys(report_table::anchor_mismatch) == rows{{"example.com -> 192.0.2.7", 1},
                                                      {"paypal.com -> login.evil.example", 1}});
    CHECK(keys(report_table::gateway) == rows{{"safelinks", 1}});
    CHECK(keys(report_table::part_kind) == rows{{"text/html", 5}, {"header", 1}, {"text/plain", 1}});
    // Outside mail there is no part to count.
    report plain;
    urlsift::found_reference ref;
    ref.url = "http://example.org/";
    plain.add(plain.add_input("a.txt"), ref);
    CHECK(plain.rows(report_table::part_kind).empty());
}

TEST_CASE("report: a host's signals are worked out once and counted for every reference", "[report]") {
    // The second reference to each host takes what the first worked out.
    report r;
    const auto in = r.add_input("hosts.txt");
    for (int round = 0; round < 2; ++round)
        for (const std::string url : {"http://www.Example.co.uk./x", "http://a.b.example.com.:80/", "http://192.168.0.1./",
                                      "http://xn--80ak6aa92e.com./", "http://localhost/"}) {
            urlsift::found_reference ref;
            ref.url = url;
            ref.line = 1;
            r.add(in, ref);
        }
    const auto keys = [&](report_table t) {
        std::vector<std::pair<std::string, std::uint64_t>> out;
        for (const auto& row : r.rows(t)) out.emplace_back(row.key, row.count);
        return out;
    };
    using rows = std::vector<std::pair<std::string, std::uint64_t>>;
    CHECK(keys(report_table::domain) == rows{{"example.co.uk", 2}, {"example.com", 2}, {"xn--80ak6aa92e.com", 2}});
    CHECK(keys(report_table::ip_host) == rows{{"192.168.0.1.", 2}});
    CHECK(keys(report_table::punycode_host) == rows{{"xn--80ak6aa92e.com.", 2}});
    CHECK(keys(report_table::lookalike_host) == rows{{"xn--80ak6aa92e.com.", 2}});
    // Merged from another report, a host's signals are worked out again.
    report later;
    urlsift::found_reference ref;
    ref.url = "http://192.168.0.1./again";
    later.add(later.add_input("later.txt"), ref);
    r.merge(later);
    r.add(0, ref);
    CHECK(keys(report_table::ip_host) == rows{{"192.168.0.1.", 4}});
}

TEST_CASE("report: a URL counted again counts what it counted the first time", "[report]") {
    // A URL seen before is counted from what its entry kept; a copy of a
    // report keeps no such facts, so copying after every reference counts
    // each one in full. Both must give the same report.
    const std::vector<std::string> urls = {
        "ftp://user:secret@ftp.example.org/pub/", "http://www.example.com:8080/x", "javascript:alert(1)",
        "http://www.example.com/a%0D%0Ab", "mailto:ada@example.net", "file:///etc/hosts", "../rel/g",
        "https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.org%2F&data=05",
        "http://192.168.0.1/admin", "http://xn--80ak6aa92e.com/", "HTTP://www.example.com/x", "http://www.example.com/x",
        "gopher://mail.example:25/xHELO", "https://www.w3.org/Addressing/"};
    report cached, in_full;
    const auto a = cached.add_input("a.txt");
    in_full.add_input("a.txt");
    std::uint64_t line = 0;
    for (int round = 0; round < 3; ++round)
        for (const std::string& url : urls) {
            urlsift::found_reference ref;
            ref.url = url;
            ref.line = ++line;
            cached.add(a, ref);
            in_full.add(a, ref);
            in_full = report(in_full);
        }
    CHECK(cached == in_full);
    for (std::size_t t = 0; t < urlsift::report_table_count; ++t) {
        const auto table = static_cast<report_table>(t);
        INFO(urlsift::to_string(table));
        CHECK(cached.rows(table).size() == in_full.rows(table).size());
        CHECK(cached.total(table) == in_full.total(table));
    }
    CHECK(count_of(cached, report_table::warning, "password-in-userinfo") == 3);
    CHECK(count_of(cached, report_table::warning, "escaped-crlf") == 3);
    CHECK(count_of(cached, report_table::gateway, "safelinks") == 3);
    CHECK(count_of(cached, report_table::ip_host, "192.168.0.1") == 3);
    CHECK(count_of(cached, report_table::domain, "example.com") == 12);
    CHECK(count_of(cached, report_table::scheme, "http") == 18);
    CHECK(count_of(cached, report_table::relative, "../rel/g") == 3);
}

TEST_CASE("report: a batch counts as its references one by one", "[report]") {
    // Longer than the batch looks ahead, with repeats, relative references,
    // invalid UTF-8 (stored repaired, under another hash than its bytes'),
    // MIME part kinds and anchor text.
    std::vector<std::string> urls;
    for (int i = 0; i < 40; ++i) urls.push_back("http://host" + std::to_string(i % 7) + ".example.org/p" + std::to_string(i % 5));
    urls.insert(urls.begin() + 3, "../up/g");
    urls.insert(urls.begin() + 9, "http://bad.example/\xff\xfe");
    urls.insert(urls.begin() + 20, "http://bad.example/\xff\xfe");
    urls.insert(urls.begin() + 30, "https://login.evil.example/");
    report one_by_one, batched;
    const auto a = one_by_one.add_input("a.eml");
    batched.add_input("a.eml");
    std::vector<report::pending> batch;
    for (std::size_t i = 0; i < urls.size(); ++i) {
        const urlsift::reference_context context{.part_kind = i % 2 == 0 ? "text/html" : "",
                                                 .anchor_text = i == 30 ? "www.paypal.com" : ""};
        const urlsift::counted_reference ref{urls[i], i + 1, urlsift::wrapper_kind::none, urlsift::reference_form::absolute};
        one_by_one.add(a, ref, context);
        batch.push_back({a, ref, context});
    }
    batched.add(batch);
    CHECK(batched == one_by_one);
    CHECK(count_of(batched, report_table::url, "http://bad.example/\xEF\xBF\xBD\xEF\xBF\xBD") == 2);
    CHECK(count_of(batched, report_table::anchor_mismatch, "paypal.com -> login.evil.example") == 1);
    CHECK(count_of(batched, report_table::part_kind, "text/html") == 22);
}

TEST_CASE("report: the top rows of many keys are the first rows of all of them", "[report]") {
    // Counts that tie in many places, so that the order of keys decides;
    // a limit far below the number of keys takes the heap's way.
    report r;
    const auto in = r.add_input("many.txt");
    for (int i = 0; i < 400; ++i)
        for (int k = 0; k <= i % 6; ++k) {
            urlsift::found_reference ref;
            ref.url = "http://h" + std::to_string((i * 37) % 400) + ".example.org/";
            ref.line = static_cast<std::uint64_t>(i + 1);
            r.add(in, ref);
        }
    const auto all = r.rows(report_table::url);
    REQUIRE(all.size() == 400);
    for (const std::size_t limit : {std::size_t{1}, std::size_t{10}, std::size_t{49}}) {
        INFO("limit " << limit);
        const auto top = r.rows(report_table::url, limit);
        REQUIRE(top.size() == limit);
        CHECK(std::equal(top.begin(), top.end(), all.begin(), [](const auto& a, const auto& b) {
            return a.key == b.key && a.count == b.count && a.first == b.first;
        }));
        const auto repeated = r.rows(report_table::url, limit, 4);
        CHECK(repeated.front().count == 6);
        CHECK(repeated.back().count >= 4);
    }
}
