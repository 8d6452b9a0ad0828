// Grouping entries by a key with a stable counting sort (host code): the CSR layout that lets a
// per-key kernel sum its entries in a fixed order (deterministic on any thread count) in
// O(keys + entries) instead of scanning every entry for every key.
#pragma once

#include <cstdint>
#include <vector>

namespace impulse {

/// start has key_count + 1 entries; entry lists, for key k, the positions e of keys[e] == k in
/// start[k] .. start[k+1], in increasing order. Negative keys (e.g. body -1, the world) are
/// skipped. Throws std::invalid_argument for a key >= key_count.
void build_segments(int key_count, const std::vector<int>& keys, std::vector<std::int64_t>& start,
                    std::vector<std::int64_t>& entry);

}  // namespace impulse
