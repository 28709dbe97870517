// urlsift-gen-docs: writes the manual pages and the shell completions of
// urlsift from its option tables, at build time.
//
// Usage: urlsift-gen-docs DIR SUMMARY
//   DIR      gets man1/urlsift.1 and man1/urlsift-COMMAND.1 (man1 replaced
//            whole, so that the page of a command that is gone goes too),
//            and completions/urlsift.bash, _urlsift and urlsift.fish
//   SUMMARY  the NAME line of urlsift(1)
// SOURCE_DATE_EPOCH, when set, dates the pages; otherwise they have no date,
// so that two builds of one source give the same bytes.

#include "cli/gen/completions.hpp"
#include "cli/gen/documented.hpp"
#include "cli/gen/man_page.hpp"

#include <urlsift/version.hpp>

#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string source_date() {
    const char* epoch = std::getenv("SOURCE_DATE_EPOCH");
    if (epoch == nullptr || *epoch == '\0') return {};
    const auto seconds = static_cast<std::time_t>(std::stoll(epoch));
    std::tm t{};
    ::gmtime_r(&seconds, &t);
    char buf[16];
    return std::string(buf, std::strftime(buf, sizeof buf, "%Y-%m-%d", &t));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: urlsift-gen-docs DIR SUMMARY\n";
        return 2;
    }
    try {
        using namespace urlsift::cli::gen;
        const fs::path dir = argv[1];
        const std::vector<documented_command> all = documented_commands();
        const std::string version(urlsift::version());
        const std::string date = source_date();
        const man_context context{.summary = argv[2], .version = version, .date = date, .all = &all};
        // Built beside, then renamed over the old pages.
        const fs::path pages = dir / "man1", fresh = dir / ".man1.new";
        fs::remove_all(fresh);
        fs::create_directories(fresh);
        for (const documented_command& d : all) write(fresh / man_page_name(d), man_page(d, context));
        fs::remove_all(pages);
        fs::rename(fresh, pages);
        const fs::path completions = dir / "completions";
        fs::create_directories(completions);
        write(completions / "urlsift.bash", bash_completion(all));
        write(completions / "_urlsift", zsh_completion(all));
        write(completions / "urlsift.fish", fish_completion(all));
    } catch (const std::exception& e) {
        std::cerr << "urlsift-gen-docs: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
