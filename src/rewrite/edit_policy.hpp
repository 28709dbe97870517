#pragma once
// The edit policy as the rewriter calls it: with a scanner kept for the
// check that an edit reads back as one URL, made once for the whole input
// instead of once for each reference it checks.

#include <urlsift/rewriter.hpp>
#include <urlsift/scanner.hpp>

#include <cstddef>
#include <optional>
#include <string_view>

namespace urlsift::detail {

/// Reads short texts alone, one after another, with one scanner, made at
/// the first text: most references call for no check at all.
class lone_reading {
public:
    /// `options` must outlive the reading.
    explicit lone_reading(const scan_options& options) noexcept : options_(options) {}
    lone_reading(const lone_reading&) = delete;  // its scanner reports to it
    lone_reading& operator=(const lone_reading&) = delete;

    /// Whether the scanner reads `text` alone as one reference, all of it.
    bool reads_as_one(std::string_view text);
    /// The form that reference was read in, after reads_as_one said yes.
    reference_form form() const noexcept { return form_; }

private:
    const scan_options& options_;
    std::size_t found_ = 0;  ///< references read in the text so far
    bool whole_ = false;     ///< the first one is all of the text
    reference_form form_ = reference_form::absolute; ///< the first one's
    std::size_t size_ = 0;   ///< the text's size
    std::optional<scanner> scanner_;
};

/// edit_for, checking with `check` (made with `options.scan`).
std::optional<rewrite_edit> edit_for(const found_reference& ref, const rewrite_options& options, lone_reading& check);

}  // namespace urlsift::detail
