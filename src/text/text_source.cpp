// The input stage: reading files and streams in blocks, telling binary
// input apart, decoding charsets, and checking that a charset gives the
// input back unchanged when a filter will write its output in it.

#include <urlsift/text_source.hpp>

#include "text/charset.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace urlsift {

namespace {

using detail::charset_converter;
using detail::conversion;

constexpr std::size_t block_size = 1 << 18; // 256 KiB: fits the L2 cache of common processors

struct fd_closer {
    int fd;
    ~fd_closer() {
        if (fd > 0) ::close(fd);
    }
};

text_read failure(std::string message) { return {text_read::status::failed, std::move(message), {}, 0}; }

/// The wide Unicode form `head` (an input's first bytes) is written in, or
/// empty: its byte-order mark, else where its NUL bytes fall. ASCII text in
/// UTF-16 has a NUL in every other byte, at odd offsets in little-endian.
std::string wide_charset_of(std::string_view head) {
    const auto starts = [&](std::string_view mark) { return head.substr(0, mark.size()) == mark; };
    using namespace std::string_view_literals;
    if (starts("\xFF\xFE\0\0"sv)) return "UTF-32LE";
    if (starts("\0\0\xFE\xFF"sv)) return "UTF-32BE";
    if (starts("\xFF\xFE"sv)) return "UTF-16LE";
    if (starts("\xFE\xFF"sv)) return "UTF-16BE";
    head = head.substr(0, 4096);
    std::size_t even = 0, odd = 0;
    for (std::size_t i = 0; i < head.size(); ++i)
        if (head[i] == '\0') ++(i % 2 == 0 ? even : odd);
    // Most of one half NUL, little of the other.
    if (odd * 4 >= head.size() && even * 8 < head.size()) return "UTF-16LE";
    if (even * 4 >= head.size() && odd * 8 < head.size()) return "UTF-16BE";
    return {};
}

/// Whether `charset` (as ICU names it) is a UTF-16 or UTF-32 form.
bool is_wide(std::string_view charset) { return charset.starts_with("UTF-16") || charset.starts_with("UTF-32"); }

}  // namespace

struct text_source::impl {
    text_options options;
    charset_converter decoder;
    /// With check_round_trip: the decoded text encoded again, compared with
    /// the input bytes not yet matched (`unmatched`, from input offset
    /// `matched`). The two differ by at most a character held back.
    std::optional<charset_converter> checker;
    std::string unmatched;
    std::uint64_t matched = 0;
    std::string utf8, again;
    std::unique_ptr<char[]> block = std::make_unique_for_overwrite<char[]>(block_size);

    impl(text_options o, charset_converter d) : options(std::move(o)), decoder(std::move(d)) {}

    /// Compares what the decoded text encodes back to with the input.
    bool round_trip_holds(std::string_view input, std::string_view text, bool last) {
        if (!checker) return true;
        unmatched.append(input);
        again.clear();
        checker->feed(text, again);
        if (last) checker->finish(again);
        const bool same = again.size() <= unmatched.size() &&
                          std::memcmp(again.data(), unmatched.data(), again.size()) == 0 &&
                          (!last || again.size() == unmatched.size());
        if (!same) return false;
        unmatched.erase(0, again.size());
        matched += again.size();
        return true;
    }

    text_read round_trip_failure() const {
        return failure("the text does not encode back to the same bytes in " + options.encoding + " (near byte " +
                       std::to_string(matched) +
                       "); rewriting it would change bytes outside the edits (check --encoding)");
    }

    /// What `read` found out about the input, added to its result.
    std::string looks_like;

    text_read read(int fd, const text_consumer& consumer) {
        looks_like.clear();
        const std::uint64_t replaced_before = decoder.replacements();
        text_read result = read_all(fd, consumer);
        result.looks_like = std::move(looks_like);
        result.invalid_sequences = decoder.replacements() - replaced_before;
        return result;
    }

    text_read read_all(int fd, const text_consumer& consumer) {
        bool first = true;
        unmatched.clear();
        matched = 0;
        text_read result;
        for (;;) {
            const ssize_t n = ::read(fd, block.get(), block_size);
            if (n < 0) {
                if (errno == EINTR) continue;
                result = failure(std::strerror(errno));
                break;
            }
            const std::string_view input(block.get(), static_cast<std::size_t>(n));
            if (first && n > 0) {
                first = false;
                // A NUL byte marks a binary file, unless a charset was named.
                const bool has_nul = std::memchr(input.data(), '\0', input.size()) != nullptr;
                if (!options.binary_as_text && decoder.is_pass_through() && has_nul) {
                    looks_like = wide_charset_of(input);
                    return {text_read::status::binary, {}, {}, 0};
                }
                if (!has_nul && n >= 2 && is_wide(decoder.name())) looks_like = "8-bit";
            }
            if (n == 0) break;
            if (decoder.is_pass_through()) {
                if (!consumer(input)) return {text_read::status::stopped, {}, {}, 0};
                continue;
            }
            utf8.clear();
            decoder.feed(input, utf8);
            if (!round_trip_holds(input, utf8, false)) {
                result = round_trip_failure();
                break;
            }
            if (!consumer(utf8)) {
                result = {text_read::status::stopped, {}, {}, 0};
                break;
            }
        }
        if (decoder.is_pass_through()) return result;
        // Whatever happened, the decoder and checker start the next input afresh.
        utf8.clear();
        decoder.finish(utf8);
        if (result.what != text_read::status::done) {
            if (checker) checker->finish(again);
            return result;
        }
        if (!round_trip_holds({}, utf8, true)) return round_trip_failure();
        if (!utf8.empty() && !consumer(utf8)) return {text_read::status::stopped, {}, {}, 0};
        return result;
    }
};

std::optional<text_source> text_source::open(text_options options, std::string& error) {
    auto decoder = charset_converter::open(options.encoding, error);
    if (!decoder) return std::nullopt;
    auto p = std::make_unique<impl>(options, std::move(*decoder));
    if (options.check_round_trip && !p->decoder.is_pass_through()) {
        p->checker = charset_converter::open(options.encoding, error, conversion::from_utf8);
        if (!p->checker) return std::nullopt;
    }
    return text_source(std::move(p));
}

text_read text_source::read_file(const std::string& path, const text_consumer& consumer) {
    int fd = 0;
    if (path != "-") {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return failure(std::strerror(errno));
    }
    const fd_closer closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) return failure("Is a directory");
    return read_fd(fd, consumer);
}

text_read text_source::read_fd(int fd, const text_consumer& consumer) { return impl_->read(fd, consumer); }

const std::string& text_source::charset() const noexcept { return impl_->decoder.name(); }
bool text_source::decodes() const noexcept { return !impl_->decoder.is_pass_through(); }

text_source::text_source(std::unique_ptr<impl> p) noexcept : impl_(std::move(p)) {}
text_source::text_source(text_source&&) noexcept = default;
text_source& text_source::operator=(text_source&&) noexcept = default;
text_source::~text_source() = default;

// ------------------------------------------------------------------ encoder

struct text_encoder::impl {
    charset_converter converter;
};

std::optional<text_encoder> text_encoder::open(std::string_view encoding, std::string& error) {
    auto c = charset_converter::open(encoding, error, conversion::from_utf8);
    if (!c) return std::nullopt;
    return text_encoder(std::make_unique<impl>(impl{std::move(*c)}));
}

void text_encoder::write(std::string_view utf8, std::string& out) { impl_->converter.feed(utf8, out); }
void text_encoder::finish(std::string& out) { impl_->converter.finish(out); }
bool text_encoder::passes_through() const noexcept { return impl_->converter.is_pass_through(); }

text_encoder::text_encoder(std::unique_ptr<impl> p) noexcept : impl_(std::move(p)) {}
text_encoder::text_encoder(text_encoder&&) noexcept = default;
text_encoder& text_encoder::operator=(text_encoder&&) noexcept = default;
text_encoder::~text_encoder() = default;

}  // namespace urlsift
