// The realistic texts in samples/ against their expected extraction
// (samples/NAME.expected is what `urlsift extract samples/NAME.txt` prints),
// through the library, and split at every offset for chunk invariance
// (samples_cli_test.cpp: through the command line).

#include "samples.hpp"
#include "scan_test_util.hpp"

#include <urlsift/scanner.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("Samples: expected extraction", "[scanner][samples]") {
    for (const char* name : urlsift::test::extraction_samples) {
        DYNAMIC_SECTION(name) {
            const std::string base = std::string(URLSIFT_SAMPLES_DIR) + "/" + name;
            const std::string text = read_file(base + ".txt");
            const std::string expected = read_file(base + ".expected");
            REQUIRE_FALSE(text.empty());
            REQUIRE_FALSE(expected.empty());

            std::vector<std::string> urls;
            // Without a base, extract lists what it can make absolute.
            for (const auto& r : urlsift::scan(text))
                if (r.form != urlsift::reference_form::relative) urls.push_back(r.url);
            CHECK(urls == lines_of(expected));

            // Every split gives the same references, field for field.
            urlsift::test::check_chunk_invariance(text);
        }
    }
}
