#include "cli/pick_actions.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace urlsift::cli {

std::optional<std::vector<std::string>> split_command(std::string_view command, std::string& error) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\\' && i + 1 < command.size()) {
            word += command[++i];
        } else if (c == '\'') {
            const std::size_t end = command.find('\'', i + 1);
            if (end == std::string_view::npos) {
                error = "unclosed ' in the command";
                return std::nullopt;
            }
            word += command.substr(i + 1, end - i - 1);
            i = end;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i >= command.size()) {
                    error = "unclosed \" in the command";
                    return std::nullopt;
                }
                if (command[i] == '"') break;
                if (command[i] == '\\' && i + 1 < command.size() && (command[i + 1] == '"' || command[i + 1] == '\\'))
                    ++i;
                word += command[i];
            }
        } else {
            word += c;
        }
    }
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) {
        error = "the command is empty";
        return std::nullopt;
    }
    return words;
}

std::vector<std::string> opener_commands(const std::optional<std::string>& option, const char* browser) {
    if (option) return {*option};
    std::vector<std::string> commands;
    if (browser != nullptr) {
        const std::string_view list = browser;
        for (std::size_t i = 0; i <= list.size();) {
            std::size_t end = list.find(':', i);
            if (end == std::string_view::npos) end = list.size();
            if (end > i) commands.emplace_back(list.substr(i, end - i));
            i = end + 1;
        }
    }
    if (commands.empty()) commands.emplace_back("xdg-open");
    return commands;
}

std::vector<std::string> command_for(const std::vector<std::string>& words, std::string_view url) {
    std::vector<std::string> argv;
    bool placed = false;
    for (const std::string& w : words) {
        std::string out;
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w[i] == '%' && i + 1 < w.size() && w[i + 1] == 's') {
                out += url;
                placed = true;
                ++i;
            } else if (w[i] == '%' && i + 1 < w.size() && w[i + 1] == '%') {
                out += '%';
                ++i;
            } else {
                out += w[i];
            }
        }
        argv.push_back(std::move(out));
    }
    if (!placed) argv.emplace_back(url);
    return argv;
}

bool safe_to_open(std::string_view url) { return !url.empty() && url.front() != '-'; }

run_result run_command(const std::vector<std::string>& argv, int tty_fd) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (tty_fd >= 0) posix_spawn_file_actions_adddup2(&actions, tty_fd, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGQUIT);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);

    // As system(): Ctrl-C while the command runs is the command's to handle.
    struct sigaction ignore {}, old_int {}, old_quit {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);

    run_result r;
    pid_t pid = 0;
    const int err = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
    if (err != 0) {
        r.error = std::strerror(err);
    } else {
        r.started = true;
        int raw = 0;
        while (waitpid(pid, &raw, 0) < 0 && errno == EINTR) {}
        r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : WIFSIGNALED(raw) ? 128 + WTERMSIG(raw) : 1;
    }
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return r;
}

std::string osc52_copy(std::string_view text) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out = "\x1b]52;c;";
    std::size_t i = 0;
    for (; i + 3 <= text.size(); i += 3) {
        const auto n = static_cast<unsigned>(static_cast<unsigned char>(text[i])) << 16 |
                       static_cast<unsigned>(static_cast<unsigned char>(text[i + 1])) << 8 |
                       static_cast<unsigned>(static_cast<unsigned char>(text[i + 2]));
        for (int shift = 18; shift >= 0; shift -= 6) out += alphabet[(n >> shift) & 63];
    }
    if (i < text.size()) {
        const std::size_t left = text.size() - i;
        unsigned n = static_cast<unsigned>(static_cast<unsigned char>(text[i])) << 16;
        if (left == 2) n |= static_cast<unsigned>(static_cast<unsigned char>(text[i + 1])) << 8;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += left == 2 ? alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out += '\a';
}

}  // namespace urlsift::cli
