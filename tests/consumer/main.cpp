// Links against an installed urlsift and resolves one reference.
#include <urlsift/resolver.hpp>

#include <cstdio>

int main() {
    auto r = urlsift::resolve("http://a/b/c/d;p?q", "../g");
    if (!r || *r != "http://a/b/g") {
        std::puts("unexpected result");
        return 1;
    }
    return 0;
}
