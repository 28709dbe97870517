// urlsift_sources linked alone: a text source and a WARC reader, whose
// record is scanned by the core's scanner.
#include <urlsift/scanner.hpp>
#include <urlsift/text_source.hpp>
#include <urlsift/warc.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

int main() {
    std::string error;
    const auto source = urlsift::text_source::open({.encoding = "latin1", .decompress = true}, error);

    std::vector<std::string> urls;
    urlsift::scanner scanner({}, [&](urlsift::found_reference& r) {
        urls.push_back(r.url);
        return true;
    });
    urlsift::warc_reader in({.record = [](const urlsift::warc_record& r) { return r.type == "conversion"; },
                             .payload = [&](std::string_view text) { return scanner.feed(text); },
                             .record_end = [&] { scanner.finish(); }});
    const std::string text = "See http://example.org/notes today.\n";
    const bool read = in.feed("WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: http://example.org/\r\n"
                              "Content-Type: text/plain\r\nContent-Length: " +
                              std::to_string(text.size()) + "\r\n\r\n" + text + "\r\n\r\n") &&
                      in.finish();

    if (!source || source->charset() != "ISO-8859-1" || !source->decompresses() || !read ||
        urls != std::vector<std::string>{"http://example.org/notes"}) {
        std::puts("urlsift_sources: unexpected result");
        return 1;
    }
    return 0;
}
