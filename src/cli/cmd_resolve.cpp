#include "cli/commands.hpp"

#include <iostream>

namespace urlsift::cli {

int cmd_resolve(const args&) {
    std::cerr << "urlsift resolve: not built yet\n";
    return 2;
}

}  // namespace urlsift::cli
