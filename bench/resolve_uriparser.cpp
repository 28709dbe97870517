// Resolver peer: uriparser (uriParseSingleUriExA, uriAddBaseUriExA, uriToStringA).
#include "refs_common.hpp"

#include <uriparser/Uri.h>

int main(int argc, char** argv) {
    static UriUriA base;
    return bench::run("uriparser", argc, argv, [](std::string_view b) {
        static std::string base_text;
        base_text = std::string(b);
        const char* err = nullptr;
        if (uriParseSingleUriA(&base, base_text.c_str(), &err) != URI_SUCCESS) {
            std::fprintf(stderr, "uriparser: bad base\n");
            std::exit(2);
        }
        return [out = std::string(4096, '\0')](std::string_view ref) mutable -> long {
            UriUriA rel, abs;
            const char* e = nullptr;
            if (uriParseSingleUriExA(&rel, ref.data(), ref.data() + ref.size(), &e) != URI_SUCCESS) return -1;
            long n = -1;
            if (uriAddBaseUriExA(&abs, &rel, &base, URI_RESOLVE_STRICTLY) == URI_SUCCESS) {
                int written = 0;
                if (uriToStringA(out.data(), &abs, static_cast<int>(out.size()), &written) == URI_SUCCESS)
                    n = written - 1;
                uriFreeUriMembersA(&abs);
            }
            uriFreeUriMembersA(&rel);
            return n;
        };
    });
}
