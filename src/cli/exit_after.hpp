#pragma once
// The tool runs one command and exits. What a command is done with can then
// go with the process instead of being freed piece by piece: the report of a
// run over tens of thousands of files takes milliseconds to free, after its
// output is written. A command run in the tests' process frees as usual.

#include <type_traits>
#include <utility>

namespace urlsift::cli {

/// Said by main before it runs the command: the process exits once the
/// command returns.
void exit_after_command() noexcept;

/// Whether main said so.
bool exits_after_command() noexcept;

/// Keeps `p` reachable to the end of the process, so that a leak checker
/// counts what it points to as in use.
void keep_until_exit(const void* p) noexcept;

/// Ends what `value` holds: left to the exit when the process exits after
/// this command, else freed here.
template <class T>
void leave_to_exit(T&& value) {
    using held = std::remove_cvref_t<T>;
    held last(std::forward<T>(value));
    if (exits_after_command()) keep_until_exit(new held(std::move(last)));
}

}  // namespace urlsift::cli
