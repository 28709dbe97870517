#include "cli/commands.hpp"

#include <iostream>

namespace urlsift::cli {

int cmd_rewrite(const args&) {
    std::cerr << "urlsift rewrite: not built yet\n";
    return 2;
}

}  // namespace urlsift::cli
