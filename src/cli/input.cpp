#include "cli/input.hpp"

#include <algorithm>
#include <filesystem>

namespace urlsift::cli {

std::vector<std::string> expand_operands(const std::vector<std::string>& operands, bool recursive,
                                         std::vector<input_error>& errors) {
    namespace fs = std::filesystem;
    if (operands.empty()) return {"-"};
    std::vector<std::string> files;
    for (const auto& op : operands) {
        std::error_code ec;
        if (op == "-" || !fs::is_directory(op, ec)) {
            files.push_back(op);
            continue;
        }
        if (!recursive) {
            errors.push_back({op, "Is a directory (use -r to read the files in it)"});
            continue;
        }
        std::vector<std::string> found;
        fs::recursive_directory_iterator it(op, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) {
            errors.push_back({op, ec.message()});
            continue;
        }
        for (; it != end; it.increment(ec)) {
            if (ec) {
                errors.push_back({it->path().string(), ec.message()});
                break;
            }
            std::error_code fec;
            if (it->is_regular_file(fec)) found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

}  // namespace urlsift::cli
