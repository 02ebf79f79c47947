// Byte layout of IREE parameter archives (.irpa), version 0.0, as the parser and the
// writer share it. All integers little-endian; the structures are packed.
//
//   header (88 bytes, at a 16-byte aligned file offset; offsets relative to it):
//     0 magic "IRPA"  4 u16 version_major  6 u16 version_minor  8 u64 header_size
//    16 u64 next_header_offset (0: none)  24 u64 flags  32 u64 entry_count
//    40 entry segment {u64 offset, u64 length}  56 metadata segment  72 storage segment
//   entry (each at a 16-byte aligned offset in the entry segment):
//     0 u64 entry_size  8 u32 type  12 u64 flags  20 name {u64 offset, u64 length} (in
//     the metadata segment)  36 metadata {offset, length}  52 u64 minimum_alignment
//     splat (type 1):    60 u64 length  68 u8 pattern[16]  84 u8 pattern_length
//     data (type 2):     60 storage {u64 offset, u64 length} (in the storage segment)
//     external (type 3): 60 path {offset, length} (metadata)  76 range {u64 offset,
//                        u64 length} (absolute in that file)
//     skip (type 0): ignored.
#pragma once

#include <cstdint>

namespace kiln::io::irpa {

inline constexpr uint32_t kMagic = 0x41505249u;  // "IRPA"
inline constexpr uint64_t kHeaderSize = 88;
inline constexpr uint64_t kHeaderAlignment = 16;
inline constexpr uint64_t kEntryAlignment = 16;
inline constexpr uint64_t kFileAlignment = 4096;  // preferred size multiple of a whole file

inline constexpr uint64_t kEntryHeaderSize = 60;
inline constexpr uint64_t kSplatEntrySize = 85;
inline constexpr uint64_t kDataEntrySize = 76;
inline constexpr uint64_t kExternalEntrySize = 92;
inline constexpr uint64_t kMaxPatternLength = 16;

enum EntryType : uint32_t { kSkip = 0, kSplat = 1, kData = 2, kExternal = 3 };

}  // namespace kiln::io::irpa
