#include "text/charset.hpp"

#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/utypes.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace urlsift::detail {

namespace {

constexpr std::string_view suggestion =
    "use --encoding utf-8|latin1|windows-1252|iso-8859-15|utf-16le|utf-16be|shift_jis|euc-jp|gb18030|koi8-r, "
    "or another charset name ICU knows";

/// Replaces every invalid, unmapped or truncated sequence with U+FFFD and
/// goes on. ICU's own substitute callback would use U+001A for some
/// single-byte charsets; one replacement character for all is clearer.
/// `context` counts the replacements.
void to_unicode_replace(const void* context, UConverterToUnicodeArgs* args, const char* /*bytes*/,
                        int32_t /*length*/, UConverterCallbackReason reason, UErrorCode* err) {
    // Resets, closes and clones also reach the callback; they are not errors.
    if (reason != UCNV_UNASSIGNED && reason != UCNV_ILLEGAL && reason != UCNV_IRREGULAR) return;
    *err = U_ZERO_ERROR;
    ++*static_cast<std::uint64_t*>(const_cast<void*>(context));
    static constexpr UChar replacement = 0xFFFD;
    ucnv_cbToUWriteUChars(args, &replacement, 1, 0, err);
}

}  // namespace

/// Both converters (`from` the source charset, `to` the target) and the
/// UTF-16 pivot buffer ucnv_convertEx works through.
/// The pivot's unread part, [pivot_source, pivot_target), carries text
/// between calls, so the state sits on the heap where its pointers stay put
/// when the decoder moves.
struct charset_converter::state {
    UConverter* from = nullptr;  ///< the source charset to Unicode
    UConverter* to = nullptr;    ///< Unicode to the target charset
    std::array<UChar, 1024> pivot{};
    UChar* pivot_source = pivot.data();
    UChar* pivot_target = pivot.data();
    std::uint64_t replaced = 0;  ///< sequences replaced with U+FFFD
};

void charset_converter::state_deleter::operator()(state* s) const noexcept {
    if (s == nullptr) return;
    if (s->from != nullptr) ucnv_close(s->from);
    if (s->to != nullptr) ucnv_close(s->to);
    delete s;
}

charset_converter::charset_converter(std::string name, std::unique_ptr<state, state_deleter> s) noexcept
    : name_(std::move(name)), state_(std::move(s)) {}
charset_converter::charset_converter(charset_converter&&) noexcept = default;
charset_converter& charset_converter::operator=(charset_converter&&) noexcept = default;
charset_converter::~charset_converter() = default;

std::optional<charset_converter> charset_converter::open(std::string_view name, std::string& error,
                                                         conversion way) {
    std::string quoted = "'";  // appended to: `"'" + std::string(...)` sets off GCC 12's -Wrestrict
    quoted.append(name).append("'");
    // ucnv_open("") would open the platform's default charset, and a NUL
    // would cut the name short: neither is what the user wrote.
    if (name.empty() || name.find('\0') != std::string_view::npos) {
        error = "unknown encoding " + quoted + ": " + std::string(suggestion);
        return std::nullopt;
    }
    const std::string c_name(name);
    UErrorCode ec = U_ZERO_ERROR;
    UConverter* named = ucnv_open(c_name.c_str(), &ec);
    if (U_FAILURE(ec) || named == nullptr) {
        error = "unknown encoding " + quoted + ": " + std::string(suggestion);
        return std::nullopt;
    }
    UErrorCode name_ec = U_ZERO_ERROR;
    const char* icu_name = ucnv_getName(named, &name_ec);
    std::string canonical = U_SUCCESS(name_ec) && icu_name != nullptr ? icu_name : c_name;
    if (canonical == "UTF-8") {
        ucnv_close(named);
        return charset_converter(std::move(canonical), nullptr);
    }

    std::unique_ptr<state, state_deleter> s(new state);
    UConverter* utf8 = ucnv_open("UTF-8", &ec);
    if (way == conversion::to_utf8) {
        s->from = named;
        s->to = utf8;
        ucnv_setToUCallBack(named, to_unicode_replace, &s->replaced, nullptr, nullptr, &ec);
    } else {
        s->from = utf8;
        s->to = named;
        if (utf8 != nullptr) ucnv_setToUCallBack(utf8, to_unicode_replace, &s->replaced, nullptr, nullptr, &ec);
    }
    if (U_FAILURE(ec) || utf8 == nullptr) {
        error = "cannot convert with encoding " + quoted + ": " + u_errorName(ec);
        return std::nullopt;
    }
    return charset_converter(std::move(canonical), std::move(s));
}

void charset_converter::feed(std::string_view in, std::string& out) {
    if (!state_) {
        out += in;
        return;
    }
    convert(in, out, false);
}

std::uint64_t charset_converter::replacements() const noexcept { return state_ ? state_->replaced : 0; }

void charset_converter::finish(std::string& out) {
    if (!state_) return;
    convert({}, out, true);
    ucnv_reset(state_->from);
    ucnv_reset(state_->to);
    state_->pivot_source = state_->pivot_target = state_->pivot.data();
}

void charset_converter::convert(std::string_view in, std::string& out, bool flush) {
    state& s = *state_;
    // ICU rejects a null source pointer even for empty input.
    static constexpr char nothing = 0;
    const char* source = in.empty() ? &nothing : in.data();
    const char* const source_end = source + in.size();
    std::array<char, 16 * 1024> buffer;
    for (;;) {
        char* target = buffer.data();
        UErrorCode ec = U_ZERO_ERROR;
        // reset=false: a partial character stays in the converters and the
        // pivot between calls; flush=true only at the end of the input.
        ucnv_convertEx(s.to, s.from, &target, buffer.data() + buffer.size(), &source, source_end, s.pivot.data(),
                       &s.pivot_source, &s.pivot_target, s.pivot.data() + s.pivot.size(), false, flush, &ec);
        out.append(buffer.data(), static_cast<std::size_t>(target - buffer.data()));
        if (ec == U_BUFFER_OVERFLOW_ERROR) continue;
        if (U_FAILURE(ec))
            throw std::runtime_error("cannot convert with encoding '" + name_ + "': " + u_errorName(ec));
        return;
    }
}

}  // namespace urlsift::detail
