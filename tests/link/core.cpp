// urlsift_core linked alone: the resolver and the scanner, with ICU's
// common library and nothing else.
#include <urlsift/resolver.hpp>
#include <urlsift/scanner.hpp>

#include <cstdio>

int main() {
    const auto resolved = urlsift::resolve("http://a/b/c/d;p?q", "../g");
    const auto found = urlsift::scan("See <URL:http://www.w3.org/Addressing/> and www.example.org/notes today.");
    if (!resolved || *resolved != "http://a/b/g" || found.size() != 2 || found[0].url != "http://www.w3.org/Addressing/" ||
        found[1].url != "http://www.example.org/notes") {
        std::puts("urlsift_core: unexpected result");
        return 1;
    }
    return 0;
}
