#include "cli/walk.hpp"

#include "cli/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fnmatch.h>
#include <fstream>
#include <functional>
#include <optional>
#include <span>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

namespace fs = std::filesystem;

/// One line of an ignore file, or one -g glob, compiled.
struct glob_rule {
    /// The pattern split at `/`; `**` stands alone. An unanchored pattern
    /// (no `/` but a trailing one) starts with `**`, so it matches a name
    /// at any depth.
    std::vector<std::string> segments;
    bool negated = false;  ///< `!`: a whitelist in an ignore file, an exclusion in -g
    bool dir_only = false; ///< trailing `/`: matches directories only
    /// How many names deep the directory the rule came from is below the
    /// walked DIR: the rule sees the paths below it relative to it.
    std::size_t depth = 0;
};

/// Compiles a gitignore line; nullopt for blank lines and comments.
std::optional<glob_rule> compile(std::string_view line, std::size_t depth) {
    glob_rule r;
    r.depth = depth;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // gitignore: trailing spaces are ignored unless escaped with `\`.
    while (!line.empty() && line.back() == ' ' && !(line.size() >= 2 && line[line.size() - 2] == '\\'))
        line.remove_suffix(1);
    if (line.empty() || line.front() == '#') return std::nullopt;
    if (line.front() == '!') {
        r.negated = true;
        line.remove_prefix(1);
    }
    if (!line.empty() && line.back() == '/') {
        r.dir_only = true;
        line.remove_suffix(1);
    }
    const bool anchored = line.find('/') != std::string_view::npos;
    if (!line.empty() && line.front() == '/') line.remove_prefix(1);
    if (!anchored) r.segments.emplace_back("**");
    for (std::size_t at = 0; at <= line.size();) {
        const std::size_t slash = std::min(line.find('/', at), line.size());
        if (slash > at) r.segments.emplace_back(line.substr(at, slash - at));
        at = slash + 1;
    }
    if (r.segments.empty() || (!anchored && r.segments.size() == 1)) return std::nullopt;
    return r;
}

/// Whether the path's names match the pattern's segments. `**` matches
/// any number of names; as the last segment (`dir/**`) at least one, so
/// that it matches what is inside, as git reads it.
bool match_segments(std::span<const std::string> pattern, std::span<const std::string> names) {
    if (pattern.empty()) return names.empty();
    if (pattern.front() == "**") {
        if (pattern.size() == 1) return !names.empty();
        for (std::size_t skip = 0; skip <= names.size(); ++skip)
            if (match_segments(pattern.subspan(1), names.subspan(skip))) return true;
        return false;
    }
    // Without FNM_PERIOD, `*` matches a leading dot, as in gitignore.
    return !names.empty() && ::fnmatch(pattern.front().c_str(), names.front().c_str(), 0) == 0 &&
           match_segments(pattern.subspan(1), names.subspan(1));
}

std::vector<std::string> split_names(std::string_view path) {
    std::vector<std::string> names;
    for (std::size_t at = 0; at < path.size();) {
        const std::size_t slash = std::min(path.find('/', at), path.size());
        if (slash > at) names.emplace_back(path.substr(at, slash - at));
        at = slash + 1;
    }
    return names;
}

/// Whether `r` matches the path `names` (from the walked DIR down).
bool rule_matches(const glob_rule& r, std::span<const std::string> names, bool is_dir) {
    return (is_dir || !r.dir_only) && r.depth < names.size() && match_segments(r.segments, names.subspan(r.depth));
}

/// The last rule in `rules` that matches the path `names`, or null.
const glob_rule* last_match(const std::vector<glob_rule>& rules, std::span<const std::string> names, bool is_dir) {
    const glob_rule* found = nullptr;
    for (const auto& r : rules)
        if (rule_matches(r, names, is_dir)) found = &r;
    return found;
}

/// grep's --include and --exclude: a file is read when its name matches
/// some --include (if any is given) and no --exclude. A file named on the
/// command line also matches by its whole name or any part of it after a
/// `/`, as grep's "name suffix". (grep lets the last of an --include and an
/// --exclude that both match win; here --exclude always wins.)
bool name_selected(const walk_settings& s, std::string_view path, bool operand) {
    const std::string base(path.substr(path.rfind('/') + 1));
    const auto matches = [&](const std::string& glob) {
        if (::fnmatch(glob.c_str(), base.c_str(), 0) == 0) return true;
        if (!operand) return false;
        for (std::size_t at = 0;;) {
            if (::fnmatch(glob.c_str(), std::string(path.substr(at)).c_str(), 0) == 0) return true;
            at = path.find('/', at);
            if (at == std::string_view::npos) return false;
            ++at;
        }
    };
    if (std::any_of(s.exclude.begin(), s.exclude.end(), matches)) return false;
    return s.include.empty() || std::any_of(s.include.begin(), s.include.end(), matches);
}

std::string join(const std::string& dir, const std::string& name) {
    if (dir.empty()) return name;
    std::string path;
    path.reserve(dir.size() + 1 + name.size());  // one allocation a path, of many thousands
    path.append(dir);
    if (dir.back() != '/') path.push_back('/');
    path.append(name);
    return path;
}

/// How many directories the walk keeps open at most, one a level.
constexpr std::size_t open_directories = 32;

/// A directory open for reading, closed with it.
class directory {
public:
    /// Opens `name` in the directory `parent` (a descriptor, or AT_FDCWD);
    /// see open(), and errno when it failed.
    directory(int parent, const char* name) {
        const int fd = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) return;
        d_ = ::fdopendir(fd);
        if (d_ == nullptr) {
            const int e = errno;
            ::close(fd);
            errno = e;
        }
    }
    directory(const directory&) = delete;
    directory& operator=(const directory&) = delete;
    ~directory() { close(); }
    bool open() const noexcept { return d_ != nullptr; }
    DIR* get() const noexcept { return d_; }
    int fd() const noexcept { return ::dirfd(d_); }
    void close() noexcept {
        if (d_ != nullptr) ::closedir(d_);
        d_ = nullptr;
    }

private:
    DIR* d_ = nullptr;
};

/// What the walk does with a directory entry.
enum class entry_kind : unsigned char {
    skip,      ///< pass it by
    directory, ///< walk into it
    file,      ///< read it: a regular file, or a symbolic link to one
};

/// What the walk does with the entry `e` of the directory `dir`. The type
/// comes with the entry on most file systems, so a tree of small files
/// costs no stat(2) a file. A symbolic link to a file is read; one to a
/// directory is not followed.
entry_kind kind_of(int dir, const dirent& e) {
    unsigned char type = e.d_type;
    struct stat st {};
    if (type == DT_UNKNOWN) {
        if (::fstatat(dir, e.d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) return entry_kind::skip;
        type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
    }
    if (type == DT_DIR) return entry_kind::directory;
    if (type == DT_REG) return entry_kind::file;
    if (type == DT_LNK && ::fstatat(dir, e.d_name, &st, 0) == 0 && S_ISREG(st.st_mode)) return entry_kind::file;
    return entry_kind::skip;
}

/// Walks one operand. A path is kept twice: as shown (the operand joined
/// with the names below it) and as those names, which the rules match.
/// Files are handed on in the byte order of their paths as they are found.
class walker {
public:
    walker(const walk_settings& s, const std::function<bool(listed_file)>& found, std::vector<input_error>& errors)
        : s_(s), found_(found), errors_(errors) {
        for (const auto& g : s.globs)
            if (auto r = compile(g, 0)) overrides_.push_back(std::move(*r));
        whitelists_ = std::count_if(overrides_.begin(), overrides_.end(), [](const glob_rule& r) { return !r.negated; });
    }

    /// Walks the directory `shown` (empty: the current one), whose path
    /// below the walked DIR is `names`, named `name_in_parent` in the
    /// directory `parent` (a descriptor; none: `shown` itself); false once
    /// `found` said to stop.
    bool walk(const std::string& shown, std::vector<std::string>& names, int parent = AT_FDCWD,
              const char* name_in_parent = nullptr) {
        const std::string where = shown.empty() ? "." : shown;
        // Opened by its name in the directory above, so that the kernel
        // looks up one name and not the whole path again.
        directory here(parent, name_in_parent != nullptr ? name_in_parent : where.c_str());
        if (!here.open()) {
            // grep: a directory that cannot be read is an error, not a skip.
            errors_.push_back({where, std::strerror(errno)});
            return true;
        }
        std::vector<std::pair<std::string, entry_kind>> entries;
        bool gitignore = false, ignore = false;
        for (;;) {
            errno = 0;  // readdir(3) tells an error from the end only by errno
            const dirent* e = ::readdir(here.get());
            if (e == nullptr) {
                if (errno != 0) errors_.push_back({where, std::strerror(errno)});
                break;
            }
            const std::string_view n = e->d_name;
            if (n == "." || n == "..") continue;
            const entry_kind kind = kind_of(here.fd(), *e);
            if (kind == entry_kind::skip) continue;
            entries.emplace_back(n, kind);
            const bool file = kind != entry_kind::directory;
            gitignore = gitignore || (file && n == ".gitignore");
            ignore = ignore || (file && n == ".ignore");
        }
        // An ignore file is opened only when the directory lists one: most
        // directories have none, and a failed open costs a path lookup.
        const std::size_t rules_before = ignores_.size();
        if (!s_.no_ignore) {
            // .ignore after .gitignore: its rules take precedence, as in ripgrep.
            if (gitignore) read_ignore_file(join(shown, ".gitignore"), names.size());
            if (ignore) read_ignore_file(join(shown, ".ignore"), names.size());
        }
        // Sorted as the paths will be: a directory's name is followed by
        // `/`, so `a.txt` (`.` is below `/`) comes before what `a/` holds.
        // The entries stay where they are; pointers to them are sorted,
        // which swaps eight bytes instead of two strings.
        std::vector<const std::pair<std::string, entry_kind>*> order;
        order.reserve(entries.size());
        for (const auto& e : entries) order.push_back(&e);
        std::sort(order.begin(), order.end(), [](const auto* x, const auto* y) {
            const std::string_view a = x->first, b = y->first;
            const std::size_t n = std::min(a.size(), b.size());
            if (const int c = a.compare(0, n, b.substr(0, n)); c != 0) return c < 0;
            // One name starts the other: the shorter one's end (or its `/`)
            // meets the longer one's next byte.
            if (a.size() == b.size()) return false;
            // Bytes compare unsigned, as std::string's compare does them.
            const auto byte = [](char c) { return static_cast<unsigned char>(c); };
            if (a.size() < b.size()) return x->second == entry_kind::directory ? byte('/') < byte(b[n]) : true;
            return y->second == entry_kind::directory ? byte(a[n]) < byte('/') : false;
        });
        // The directory stays open while the walk is below it, for that;
        // deeper than a bound it is closed here and what it holds is opened
        // by path, so that a deep tree takes a bounded number of descriptors.
        const bool stay_open = names.size() < open_directories;
        if (!stay_open) here.close();
        bool going = true;
        for (std::size_t i = 0; i < order.size() && going; ++i) {
            const auto& [name, kind] = *order[i];
            const bool dir = kind == entry_kind::directory;
            names.push_back(name);
            std::string path = join(shown, name);
            if (selected(names, dir)) {
                if (dir)
                    going = stay_open ? walk(path, names, here.fd(), name.c_str()) : walk(path, names);
                else if (name_selected(s_, path, false))
                    going = found_({std::move(path)});
            }
            names.pop_back();
        }
        ignores_.resize(rules_before);
        return going;
    }

private:
    void read_ignore_file(const std::string& path, std::size_t depth) {
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);)
            if (auto r = compile(line, depth)) ignores_.push_back(std::move(*r));
    }

    // ripgrep's order: a -g glob decides first; then the ignore files; then
    // a hidden name is skipped, unless an ignore file's `!` rule named it.
    bool selected(const std::vector<std::string>& names, bool dir) const {
        const std::string& name = names.back();
        // A temporary file an interrupted in-place edit left behind is no
        // input of its own.
        if (!dir && atomic_file::is_temporary_name(name)) return false;
        if (const glob_rule* g = last_match(overrides_, names, dir)) return !g->negated;
        // A -g whitelist leaves out the files it does not name, but not
        // the directories that may hold them.
        if (!dir && whitelists_ > 0) return false;
        const glob_rule* ignored = s_.no_ignore ? nullptr : last_match(ignores_, names, dir);
        if (ignored) return ignored->negated;
        return s_.hidden || name.front() != '.';
    }

    const walk_settings& s_;
    const std::function<bool(listed_file)>& found_;
    std::vector<input_error>& errors_;
    std::vector<glob_rule> overrides_;
    std::ptrdiff_t whitelists_ = 0;
    std::vector<glob_rule> ignores_; ///< the rules of the directories being walked, outermost first
};

}  // namespace

namespace {

constexpr option_row<walk_settings> walk_options[] = {
    {{.name = "recursive", .short_name = 'r',
      .help = "read the files under each DIR (no DIR: the current directory)"}, &walk_settings::recursive},
    {{.name = "include", .value = value_kind::glob, .help = "read only files whose name matches GLOB (repeatable)",
      .repeatable = true}, &walk_settings::include},
    {{.name = "exclude", .value = value_kind::glob, .help = "skip files whose name matches GLOB (repeatable)",
      .repeatable = true}, &walk_settings::exclude},
    {{.name = "glob", .short_name = 'g', .value = value_kind::glob,
      .help = "under -r, read only what matches GLOB, or skip it with !GLOB (gitignore syntax; repeatable, "
              "the last match wins)",
      .repeatable = true}, &walk_settings::globs},
    {{.name = "hidden", .help = "under -r, read hidden files and directories too"}, &walk_settings::hidden},
    {{.name = "no-ignore", .help = "under -r, read what .gitignore and .ignore files leave out"},
     &walk_settings::no_ignore},
};

}  // namespace

void add_walk_options(option_set& set, walk_settings& s) { set.add(walk_options, s); }

void walk_files(const std::vector<std::string>& operands, const walk_settings& s, std::vector<input_error>& errors,
                const std::function<bool(listed_file)>& found) {
    if (operands.empty()) {
        if (!s.recursive) {
            found({"-"});
            return;
        }
        // ripgrep and grep -r: the current directory, its files named
        // relative to it.
        std::vector<std::string> names;
        walker(s, found, errors).walk("", names);
        return;
    }
    for (const auto& op : operands) {
        std::error_code ec;
        if (op == "-" || !fs::is_directory(op, ec)) {
            if ((op == "-" || name_selected(s, op, true)) && !found({op})) return;
            continue;
        }
        if (!s.recursive) {
            errors.push_back({op, "Is a directory (use -r to read the files in it)"});
            continue;
        }
        std::vector<std::string> names;
        if (!walker(s, found, errors).walk(op, names)) return;
    }
}

std::vector<listed_file> list_files(const std::vector<std::string>& operands, const walk_settings& s,
                                    std::vector<input_error>& errors) {
    std::vector<listed_file> files;
    walk_files(operands, s, errors, [&files](listed_file f) {
        files.push_back(std::move(f));
        return true;
    });
    return files;
}

std::vector<std::string> expand_operands(const std::vector<std::string>& operands, const walk_settings& s,
                                         std::vector<input_error>& errors) {
    std::vector<std::string> paths;
    for (listed_file& f : list_files(operands, s, errors)) paths.push_back(std::move(f.path));
    return paths;
}

bool gitignore_match(std::string_view pattern, std::string_view path, bool is_dir) {
    const auto r = compile(pattern, 0);
    return r && rule_matches(*r, split_names(path), is_dir);
}

}  // namespace urlsift::cli
