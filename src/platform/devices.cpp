#include "platform/devices.hpp"

#include <array>
#include <cstdlib>

namespace urlsift::platform {

namespace {

constexpr std::array all_devices{device::syscalls,  device::disk_reads, device::placement,
                                 device::descriptor_table, device::spin,       device::huge_pages};

/// Whether this build has `d`.
constexpr bool built(device d) noexcept {
    switch (d) {
    case device::syscalls:
    case device::disk_reads:
    case device::placement:
    case device::descriptor_table:
    case device::huge_pages:
#if defined(__linux__)
        return true;
#else
        return false;
#endif
    case device::spin:
#if defined(__x86_64__) || defined(__i386__)
        return true;
#else
        return false;
#endif
    }
    return false;
}

/// Whether the comma-separated `list` names `d` (or is `all`).
bool named(std::string_view list, device d) noexcept {
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        if (item == "all" || item == name_of(d)) return true;
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace

std::string_view name_of(device d) noexcept {
    switch (d) {
    case device::syscalls: return "syscalls";
    case device::disk_reads: return "disk-reads";
    case device::placement: return "placement";
    case device::descriptor_table: return "descriptor-table";
    case device::spin: return "spin";
    case device::huge_pages: return "huge-pages";
    }
    return {};
}

bool device_on(device d) noexcept {
    static const std::array<bool, all_devices.size()> on = [] {
        const char* env = std::getenv("URLSIFT_PORTABLE");
        const std::string_view portable = env != nullptr ? env : "";
        std::array<bool, all_devices.size()> a{};
        for (const device x : all_devices) a[static_cast<std::size_t>(x)] = built(x) && !named(portable, x);
        return a;
    }();
    return on[static_cast<std::size_t>(d)];
}

}  // namespace urlsift::platform
