// urlsift_report linked alone: references counted by registrable domain,
// and a look-alike host found by ICU's spoof checker.
#include <urlsift/report.hpp>
#include <urlsift/scanner.hpp>

#include <cstdio>
#include <string>

int main() {
    const std::string text = "See http://www.example.co.uk/a and http://docs.example.co.uk/b today.\n";
    urlsift::report r;
    const auto in = r.add_input("notes.txt");
    for (const auto& ref : urlsift::scan(text)) r.add(in, ref);
    r.finish_input(in, text.size(), urlsift::input_status::read);
    const auto domains = r.rows(urlsift::report_table::domain);

    if (r.references() != 2 || domains.size() != 1 || domains[0].key != "example.co.uk" || domains[0].count != 2 ||
        !urlsift::is_lookalike_host("xn--80ak6aa92e.com")) {
        std::puts("urlsift_report: unexpected result");
        return 1;
    }
    return 0;
}
