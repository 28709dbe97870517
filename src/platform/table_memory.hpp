#pragma once
// Memory for the large arrays of a table of millions of keys (the
// report's key table): allocated, freed and grown keeping what it holds.

#include <cstddef>

namespace urlsift::platform {

/// `bytes` of memory, aligned for any type; throws std::bad_alloc.
void* allocate_table_bytes(std::size_t bytes);
/// Frees `p`, `bytes` long, from allocate_table_bytes.
void deallocate_table_bytes(void* p, std::size_t bytes) noexcept;
/// Moves the first `used` bytes of `p` (`bytes` long, from
/// allocate_table_bytes; may be null) into `new_bytes` (more) and frees
/// the old. With device `huge-pages`, an array of 4 MiB or more is
/// remapped (mremap(2)), its pages kept where they are rather than copied
/// into new ones.
void* reallocate_table_bytes(void* p, std::size_t bytes, std::size_t used, std::size_t new_bytes);

}  // namespace urlsift::platform
