#pragma once
// WARC records made for tests.

#include <string>
#include <string_view>

namespace urlsift::test {

/// One record as a WARC writer lays it out: CRLF line breaks, the content,
/// then two CRLFs.
inline std::string record(std::string_view type, std::string_view uri, std::string_view content_type, std::string_view content) {
    std::string r = "WARC/1.0\r\nWARC-Type: " + std::string(type) + "\r\n";
    if (!uri.empty()) r += "WARC-Target-URI: " + std::string(uri) + "\r\n";
    r += "WARC-Date: 2026-11-20T10:00:00Z\r\n";
    r += "Content-Type: " + std::string(content_type) + "\r\n";
    r += "Content-Length: " + std::to_string(content.size()) + "\r\n\r\n";
    r += content;
    r += "\r\n\r\n";
    return r;
}

}  // namespace urlsift::test
