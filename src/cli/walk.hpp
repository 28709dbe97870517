#pragma once
// Which files to read, the way grep and ripgrep choose them: operands in
// order, `-` for standard input, directories walked with -r. Under -r,
// hidden files are skipped and .gitignore and .ignore files honoured, as
// ripgrep does; --include, --exclude (grep's) and -g (ripgrep's) choose
// files by name. All glob matching is here, on fnmatch(3).

#include "cli/option_table.hpp"

#include <urlsift/text_source.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// An input that could not be read, with a message for the user.
struct input_error {
    std::string path;
    std::string message;
};

/// The options that choose files.
struct walk_settings {
    bool recursive = false;
    std::vector<std::string> include; ///< --include: grep's, on base names
    std::vector<std::string> exclude; ///< --exclude: grep's, on base names
    std::vector<std::string> globs;   ///< -g: ripgrep's, relative to the walked DIR; `!` excludes
    bool hidden = false;              ///< --hidden: read hidden files and directories under -r
    bool no_ignore = false;           ///< --no-ignore: .gitignore and .ignore mean nothing
};

/// Adds -r, --include, --exclude, -g, --hidden and --no-ignore to `set`,
/// storing into `s`.
void add_walk_options(option_set& set, walk_settings& s);

/// Expands the operands into the files to read, in order. A directory is
/// walked with -r (sorted by path, symbolic links to directories not
/// followed below the top) and reported in `errors` without it, as is a
/// directory under it that cannot be read. No operands means `-`, or `.`
/// with -r (its files named relative to it: `sub/x.txt`). Files named as
/// operands pass --include and --exclude (as in grep) but no ignore file,
/// -g or hidden-file rule (as in ripgrep).
std::vector<std::string> expand_operands(const std::vector<std::string>& operands, const walk_settings& s,
                                         std::vector<input_error>& errors);

/// A file as the walk hands it on.
struct listed_file {
    std::string path;
};

/// The files of `expand_operands`, each handed to `found` as soon as the
/// walk reaches it, in the same order, with what the walk knows of it;
/// `found` returns false to stop the walk.
void walk_files(const std::vector<std::string>& operands, const walk_settings& s, std::vector<input_error>& errors,
                const std::function<bool(listed_file)>& found);
/// As `expand_operands`, with what the walk knows of each file.
std::vector<listed_file> list_files(const std::vector<std::string>& operands, const walk_settings& s,
                                    std::vector<input_error>& errors);

/// Whether `path` matches the gitignore-style `pattern` (`*`, `?`, `[...]`
/// within a name, `**` across directories; anchored when it has a `/`
/// other than a trailing one, otherwise matched against each name); `path`
/// is relative to where the pattern applies, `/`-separated.
bool gitignore_match(std::string_view pattern, std::string_view path, bool is_dir);

}  // namespace urlsift::cli
