#include "cli/commands.hpp"

#include <iostream>

namespace urlsift::cli {

int cmd_extract(const args&) {
    std::cerr << "urlsift extract: not built yet\n";
    return 2;
}

}  // namespace urlsift::cli
