// Reading the fatbin containers that nvcc embeds in a program: find the entries,
// decompress them, and choose the PTX that suits the emulated device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/result.h"

namespace cucpu::fatbin {

// The values are those of the entry header's kind field. LtoIr (NVVM IR of
// -gencode ...,code=lto_XX) is listed so that messages can name it; cucpu does not run it.
enum class EntryKind : uint16_t { Ptx = 1, Cubin = 2, LtoIr = 8, Unknown = 0 };

struct Entry {
  EntryKind kind = EntryKind::Unknown;
  uint32_t arch = 0;         // compute capability as 10*major+minor: 90 for compute_90/sm_90
  std::string identifier;    // the file name nvcc recorded, if any
  std::vector<uint8_t> data; // decompressed payload (PTX text without trailing NULs, or ELF);
                             // for LTO IR and unknown kinds, the payload as stored
};

// All entries of one fatbin (several fatbins may be concatenated in one blob).
// `data` points to the fatbin header (magic 0xBA55ED50). Malformed input is an error
// (ErrorCode::InvalidImage) that names what is wrong and where; never a crash.
// size_limit bounds how far the reader may look (SIZE_MAX: trust the header sizes).
Result<std::vector<Entry>> read_entries(const void* data, size_t size_limit);

// Every fatbin of a buffer that holds several back to back (the `.nv_fatbin` section of a
// program linked from several objects, `__nv_relfatbin` of -rdc builds), one entry list
// per fatbin, in order. Zero bytes between fatbins (section alignment) are skipped.
Result<std::vector<std::vector<Entry>>> read_fatbins(const void* data, size_t size);

// The PTX for a device of compute capability `arch` (e.g. 90): the entry with the highest
// arch <= the device's; where there is none but machine code for the device exists, the
// oldest newer PTX, with a note on stderr (select_ptx.cpp). Error ErrorCode::NoKernelImage
// otherwise, with a message telling how to rebuild (-arch=sm_XX or -gencode ...,code=compute_XX).
Result<std::string> select_ptx(const std::vector<Entry>& entries, uint32_t arch);

// The wrapper nvcc passes to __cudaRegisterFatBinary (magic 0x466243b1).
struct Wrapper {
  int32_t magic;
  int32_t version;
  const void* data;  // the fatbin
  const void* filename_or_fatbins;
};
constexpr int32_t kWrapperMagic = 0x466243b1;
constexpr uint32_t kFatbinMagic = 0xBA55ED50;

constexpr int32_t kWrapperVersion = 1;      // FATBINC_VERSION: data is the program's fatbin
constexpr int32_t kLinkWrapperVersion = 2;  // FATBINC_LINK_VERSION: an -rdc link (see below)

// The entries of the fatbin that a __cudaRegisterFatBinary argument (a Wrapper) points to;
// a wrong wrapper magic is ErrorCode::InvalidImage.
Result<std::vector<Entry>> read_wrapped(const void* wrapper);

// The PTX a registered wrapper gives a device of compute capability `arch`, one text per
// translation unit. An ordinary wrapper gives one. The wrapper of an -rdc link (nvcc's
// crt/link.stub) carries nvlink's fatbin, machine code only, and in filename_or_fatbins a
// null-terminated array of the prelinked objects' fatbins (in `__nv_relfatbin`): each gives
// its PTX, and the texts are to be linked together (ptx/link.h).
Result<std::vector<std::string>> select_wrapper_ptx(const void* wrapper, uint32_t arch);

// Whether a fatbin is libcudadevrt's, which nvcc links into every -rdc program: its PTX
// defines the device runtime API (cudaGetParameterBuffer, __cudaCDP2LaunchDeviceV2, ...) on
// top of driver internals that only a GPU has. cucpu provides those functions itself (exec),
// so this object is left out of the link. It is recognised by what its PTX defines.
bool is_device_runtime_library(const std::vector<Entry>& entries);

}  // namespace cucpu::fatbin
