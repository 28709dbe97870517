// Mail inputs (--input mail|mbox|auto): an input opened once, its first
// bytes looked at, and its messages handed to the command, or, when it is
// not mail, its bytes to the command's reading of text and documents.

#include "cli/mail_input.hpp"

#include "cli/input.hpp"
#include "text/decompress.hpp"

#include <urlsift/mail.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift::cli {

namespace {

constexpr option_row<mail_settings> mail_options[] = {
    {input_option, &mail_settings::input},
    {{.name = "headers", .help = headers_help, .help_more = " (with --input mail|mbox|auto; jsonl always has them)"},
     &mail_settings::headers},
};

}  // namespace

void add_mail_options(option_set& set, mail_settings& s) { set.add(mail_options, s); }

std::string read_as_mail(const std::string& path, input_setting setting, bool decompress, std::size_t parse_memory,
                         const mail_input_sink& messages, const text_input_sink& text) {
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    struct closer {
        int fd;
        ~closer() {
            if (fd > 0) ::close(fd);
        }
    } const close_it{is_stdin ? -1 : fd};
    struct stat sb {};
    if (::fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) return "Is a directory";
    // A regular file is read by GMime from the file, a message at a time;
    // anything else (a pipe) is read whole first, as it can be read only
    // once and `auto` must look at its start. So is a compressed file under
    // -z, decompressed as it is read.
    constexpr std::size_t head_size = 64 * 1024; // what `auto` looks at
    const bool regular = S_ISREG(sb.st_mode);
    std::optional<std::string> whole;
    std::string head;
    if (regular) {
        head.resize(head_size);
        const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
        if (n < 0) return std::strerror(errno);
        head.resize(static_cast<std::size_t>(n));
    }
    if (!regular || (decompress && detail::compression_of(head) != detail::compression::none)) {
        std::string error;
        whole = read_whole(fd, error, decompress);
        if (!error.empty()) return error;
        head = whole->substr(0, head_size);
    }
    const input_kind how = decide_input(setting, path, head);
    const std::optional<mail_format> as = mail_format_of(how);
    if (!as) return text(whole ? &*whole : nullptr, how);
    const auto sink = [&](mail_message& m) { return messages(m, *as); };
    const mail_read got = whole ? read_mail(*whole, *as, sink, parse_memory)
                                 : read_mail_fd(fd, *as, sink, parse_memory);
    return got.what == mail_read::status::failed ? got.error : std::string();
}

}  // namespace urlsift::cli
