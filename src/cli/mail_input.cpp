// Mail inputs (--input mail|mbox|auto): an input opened once, its first
// bytes looked at, and its messages handed to the command, or, when it is
// not mail, its bytes to the command's reading of text and documents.

#include "cli/mail_input.hpp"

#include "cli/input.hpp"
#include "text/decompress.hpp"

#include <urlsift/mail.hpp>

#include <cerrno>
#include <cstdlib>
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

namespace {

/// An unnamed file in $TMPDIR (else /tmp), open for reading and writing;
/// -1 with `error` set when none can be made. It is gone once closed.
int temporary_file(std::string& error) {
    const char* dir = std::getenv("TMPDIR");
    const std::string where = dir != nullptr && *dir != '\0' ? dir : "/tmp";
    int fd = ::open(where.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        // A file system without O_TMPFILE: a named file, unlinked at once.
        std::string name = where + "/urlsift-mail-XXXXXX";
        fd = ::mkstemp(name.data());
        if (fd >= 0) ::unlink(name.c_str());
    }
    if (fd < 0) error = "cannot make a temporary file in " + where + ": " + std::strerror(errno);
    return fd;
}

bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

}  // namespace

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
    // -z, decompressed as it is read. Mail held so is at most a quarter of
    // --max-memory: past that it goes to a temporary file that GMime reads
    // as it would the input.
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
    int spooled = -1;
    struct spool_closer {
        int& fd;
        ~spool_closer() {
            if (fd >= 0) ::close(fd);
        }
    } const close_spool{spooled};
    if (!regular || (decompress && detail::compression_of(head) != detail::compression::none)) {
        std::string error, spool_error, rest;
        std::optional<bool> is_mail;  // decided once the input goes past the limit
        auto got = read_whole_within(
            fd, held_document_bytes(parse_memory),
            [&](std::string_view piece) {
                if (!is_mail) {
                    // The first piece is what was held: the input's start.
                    is_mail = mail_format_of(decide_input(setting, path, piece.substr(0, head_size))).has_value();
                    if (*is_mail && (spooled = temporary_file(spool_error)) < 0) return false;
                }
                if (!*is_mail) {
                    rest.append(piece);  // text: read whole, as before
                    return true;
                }
                if (write_all(spooled, piece)) return true;
                spool_error = std::string("cannot write to a temporary file: ") + std::strerror(errno);
                return false;
            },
            error, decompress);
        if (!spool_error.empty()) return spool_error;
        if (!error.empty()) return error;
        if (got.over && !*is_mail) got.bytes = std::move(rest);
        if (spooled < 0) {
            whole = std::move(got.bytes);
            head = whole->substr(0, head_size);
        } else {
            head.resize(head_size);
            const ssize_t n = ::pread(spooled, head.data(), head.size(), 0);
            head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
            ::lseek(spooled, 0, SEEK_SET);
        }
    }
    const input_kind how = decide_input(setting, path, head);
    const std::optional<mail_format> as = mail_format_of(how);
    if (!as) return text(whole ? &*whole : nullptr, how);
    const auto sink = [&](mail_message& m) { return messages(m, *as); };
    const mail_read got = whole ? read_mail(*whole, *as, sink, parse_memory)
                                 : read_mail_fd(spooled >= 0 ? spooled : fd, *as, sink, parse_memory);
    return got.what == mail_read::status::failed ? got.error : std::string();
}

}  // namespace urlsift::cli
