#include "platform/table_memory.hpp"

#include "platform/devices.hpp"

#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace urlsift::platform {

namespace {

// Device `huge-pages`: arrays from 4 MiB on are mapped apart, in whole
// huge pages (madvise(2) MADV_HUGEPAGE), so that a table of millions of
// keys costs few page faults and TLB misses. Below that a huge page costs
// more than it saves: its first touch zeroes 2 MiB at once, and where
// memory is fragmented the kernel compacts it first, which stalled the
// merge of a threaded report over 20,000 files for 4 to 9 ms in a third of
// the runs (1 MiB arrays in huge pages); on small pages it takes 1.6 ms,
// every run.
constexpr std::size_t huge_page_size = std::size_t{1} << 21;
constexpr std::size_t mapped_from = std::size_t{1} << 22;

/// Whether an array of `bytes` is mapped apart.
bool mapped(std::size_t bytes) noexcept {
#if defined(__linux__)
    return bytes >= mapped_from && device_on(device::huge_pages);
#else
    (void)bytes;
    return false;
#endif
}

#if defined(__linux__)
/// The length of the mapping that holds `bytes`: whole huge pages.
std::size_t mapped_size(std::size_t bytes) noexcept { return (bytes + huge_page_size - 1) & ~(huge_page_size - 1); }
#endif

}  // namespace

void* allocate_table_bytes(std::size_t bytes) {
#if defined(__linux__)
    if (mapped(bytes)) {
        const std::size_t size = mapped_size(bytes);
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        // A hint: where transparent huge pages are off, the pages are small.
        ::madvise(p, size, MADV_HUGEPAGE);
        return p;
    }
#endif
    return ::operator new(bytes);
}

void deallocate_table_bytes(void* p, std::size_t bytes) noexcept {
#if defined(__linux__)
    if (mapped(bytes)) {
        ::munmap(p, mapped_size(bytes));
        return;
    }
#endif
    ::operator delete(p);
}

void* reallocate_table_bytes(void* p, std::size_t bytes, std::size_t used, std::size_t new_bytes) {
    if (p == nullptr) return allocate_table_bytes(new_bytes);
#if defined(__linux__)
    if (mapped(bytes)) {
        const std::size_t size = mapped_size(new_bytes);
        void* q = ::mremap(p, mapped_size(bytes), size, MREMAP_MAYMOVE);
        if (q == MAP_FAILED) throw std::bad_alloc();
        ::madvise(q, size, MADV_HUGEPAGE);
        return q;
    }
#endif
    void* q = allocate_table_bytes(new_bytes);
    std::memcpy(q, p, used);
    deallocate_table_bytes(p, bytes);
    return q;
}

}  // namespace urlsift::platform
