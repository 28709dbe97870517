// Resolver peer: Boost.URL (parse_uri_reference, resolve into a reused url).
#include "refs_common.hpp"

#include <boost/url.hpp>

int main(int argc, char** argv) {
    return bench::run("boost_url", argc, argv, [](std::string_view b) {
        auto base = boost::urls::parse_uri(b);
        if (!base) {
            std::fprintf(stderr, "boost_url: bad base\n");
            std::exit(2);
        }
        return [base = boost::urls::url(*base), dest = boost::urls::url()](std::string_view ref) mutable -> long {
            auto r = boost::urls::parse_uri_reference(ref);
            if (!r) return -1;
            if (!boost::urls::resolve(base, *r, dest)) return -1;
            return static_cast<long>(dest.buffer().size());
        };
    });
}
