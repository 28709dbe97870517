#pragma once
// One rule about paths shared by resolution and normalization.

#include <cstddef>
#include <string>

namespace urlsift::detail {

/// Without a site, a path that starts with "//" would be read back as a
/// site (Section 3: "//" introduces one). Removing dot segments can make
/// such a path: "/.//x" becomes "//x", and "h:/.//x" would turn into
/// "h://x", whose host is "x". Prefixing "/." keeps it a path with the same
/// segments, as RFC 3986 section 5.4 suggests for such results. `out` holds
/// the path from `path_start` on.
inline void keep_path_a_path(std::string& out, std::size_t path_start, bool has_site) {
    if (!has_site && out.size() - path_start >= 2 && out[path_start] == '/' && out[path_start + 1] == '/')
        out.insert(path_start, "/.");
}

}  // namespace urlsift::detail
