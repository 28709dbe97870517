// urlsift_mail linked alone: a message read with GMime, and the links of
// its HTML part, which the HTML reader of urlsift_formats finds.
#include <urlsift/mail.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
    const std::string message = "From: a@example.org\nSubject: notes\nMIME-Version: 1.0\nContent-Type: text/html\n\n"
                                "<p>See <a href=\"http://example.org/notes\">the notes</a>.</p>\n";
    std::vector<std::string> urls;
    const auto read = urlsift::read_mail(message, urlsift::mail_format::message, [&](urlsift::mail_message& m) {
        return urlsift::scan_message(m, {}, [&](urlsift::mail_reference& r) {
            urls.push_back(r.ref.url);
            return true;
        });
    });

    if (read.what != urlsift::mail_read::status::done || urls != std::vector<std::string>{"http://example.org/notes"}) {
        std::puts("urlsift_mail: unexpected result");
        return 1;
    }
    return 0;
}
