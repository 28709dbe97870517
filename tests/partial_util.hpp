#pragma once
// Partial reports edited by a test: the checksum made again over the edit,
// as someone who edits a partial by hand would, so that what the reader
// checks beyond the checksum is what a test sees.

#include "cli/report_format.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace urlsift::test {

/// `json` (a partial report) with its checksum made to match its bytes.
inline std::string restamped(std::string json) {
    const std::size_t at = json.find("\"checksum\": \"");
    if (at == std::string::npos) throw std::logic_error("restamped: no checksum");
    const std::size_t value = at + 13, covered = json.find('\n', value) + 1;
    const std::string checksum = cli::checksum_text(cli::partial_checksum(std::string_view(json).substr(covered)));
    json.replace(value, checksum.size(), checksum);
    return json;
}

}  // namespace urlsift::test
