// The realistic texts in samples/ against their expected extraction
// through the command line (samples_test.cpp: through the library).

#include "file_util.hpp"
#include "samples.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <string>

namespace {

std::string run_cli(const std::string& args) {
    const std::string command = std::string(URLSIFT_CLI_PATH) + " " + args + " 2>/dev/null";
    FILE* p = ::popen(command.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
    ::pclose(p);
    return out;
}

}  // namespace

TEST_CASE("Samples: expected extraction by the command line", "[scanner][samples][cli]") {
    for (const char* name : urlsift::test::extraction_samples) {
        DYNAMIC_SECTION(name) {
            const std::string base = std::string(URLSIFT_SAMPLES_DIR) + "/" + name;
            const std::string expected = urlsift::test::read_file(base + ".expected");
            REQUIRE_FALSE(expected.empty());
            CHECK(run_cli("extract '" + base + ".txt'") == expected);
        }
    }
}
