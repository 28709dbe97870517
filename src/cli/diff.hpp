#pragma once
// A unified diff of a text and the edits made to it.

#include <urlsift/rewriter.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace urlsift::cli {

/// Appends to `out` a unified diff (3 lines of context) between `original`
/// and `original` with `edits` applied, labelled `a/label` and `b/label`.
/// Edits are in input order and do not overlap. Nothing is appended when
/// there are no edits.
void append_unified_diff(std::string& out, std::string_view label, std::string_view original,
                         const std::vector<rewrite_edit>& edits);

}  // namespace urlsift::cli
