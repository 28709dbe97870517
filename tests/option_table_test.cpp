// The option tables: each command's options well formed, and the parse
// filling the typed settings they are bound to.

#include "cli/commands.hpp"
#include "cli/errors.hpp"
#include "cli/options.hpp"
#include "cli/scan_settings.hpp"
#include "cli/walk.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace urlsift::cli;

TEST_CASE("option tables: names unique, values described", "[options]") {
    for (const command_spec* c : all_commands()) {
        DYNAMIC_SECTION(c->name) {
            option_set set;
            c->list_options(set);
            std::set<std::string_view> names;
            std::set<char> shorts;
            for (const option_spec* o : set.specs()) {
                INFO("--" << o->name);
                CHECK(names.insert(o->name).second);
                if (o->short_name != 0) CHECK(shorts.insert(o->short_name).second);
                CHECK_FALSE(o->help.empty());
                CHECK_FALSE(brief_help(*o).empty());
                if (o->value == value_kind::choice || o->value == value_kind::choice_list) CHECK_FALSE(o->choices.empty());
                if (o->value == value_kind::none) CHECK(o->choices.empty());
                if (o->value != value_kind::choice_list) CHECK(o->alone.empty());
            }
            CHECK(names.contains("help"));
            CHECK(names.contains("version"));
            // What an option excludes is an option of the same command.
            for (const option_spec* o : set.specs())
                for (const std::string_view other : o->excludes) {
                    INFO("--" << o->name << " excludes --" << other);
                    CHECK(names.contains(other));
                }
        }
    }
}

TEST_CASE("option tables: the parse fills the settings", "[options]") {
    option_set set;
    walk_settings walk;
    scan_settings scan;
    add_walk_options(set, walk);
    add_scan_options(set, scan, abbrev_help::all_but_ipv4);
    // Defaults come from the table, before anything is parsed.
    CHECK(scan.hyphen == "keep");
    CHECK(scan.max_url_length == 65536);
    CHECK(scan.max_memory == "64M");
    CHECK_FALSE(scan.base);
    std::vector<std::string> operands;
    parse_command_line("test", {"-r", "--include", "*.md", "a.txt", "--include=*.txt", "--hyphen", "drop", "--hyphen",
                                "keep", "--base", "", "--max-url-length", "100", "-g", "!x", "b.txt"},
                       set, operands);
    CHECK(walk.recursive);
    CHECK(walk.include == std::vector<std::string>{"*.md", "*.txt"});
    CHECK(walk.globs == std::vector<std::string>{"!x"});
    CHECK_FALSE(walk.hidden);
    CHECK(scan.hyphen == "keep");  // the last one given
    REQUIRE(scan.base);
    CHECK(scan.base->empty());  // given, though empty
    CHECK(scan.max_url_length == 100);
    CHECK_FALSE(scan.abbrev);
    CHECK(operands == std::vector<std::string>{"a.txt", "b.txt"});
}

TEST_CASE("option tables: a bad option is a usage error naming it", "[options]") {
    option_set set;
    walk_settings walk;
    add_walk_options(set, walk);
    std::vector<std::string> operands;
    CHECK_THROWS_WITH(parse_command_line("test", {"--no-such"}, set, operands), Catch::Contains("no-such"));
    CHECK_THROWS_AS(parse_command_line("test", {"--include"}, set, operands), usage_error);
}
