// urlsift's resolver in process: one resolver for the base, resolve_to into
// a reused string.
#include "refs_common.hpp"

#include <urlsift/resolver.hpp>

int main(int argc, char** argv) {
    return bench::run("urlsift", argc, argv, [](std::string_view b) {
        auto made = urlsift::resolver::make(b);
        if (!made) {
            std::fprintf(stderr, "urlsift: bad base\n");
            std::exit(2);
        }
        return [r = std::move(*made), out = std::string()](std::string_view ref) mutable -> long {
            out.clear();
            if (r.resolve_to(out, ref)) return -1;
            return static_cast<long>(out.size());
        };
    });
}
