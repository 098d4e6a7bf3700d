// What cuLinkComplete hands back: the linked PTX translation units in one image that
// cuModuleLoadData takes again (core/module_registry.cpp). On a GPU the image is machine
// code; here it is the units' PTX, checked when the link completes (each parses, and they
// link: ptx/link.h), compiled when the image is loaded.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "support/result.h"

namespace cucpu::core {

// Whether text is PTX: after blanks and comments, a directive (".version").
bool looks_like_ptx(const char* text);

// cuLinkAddData's check of a PTX input: InvalidImage for text that is no PTX, InvalidPtx
// for PTX that does not parse.
Result<void> check_link_input(const std::string& text);

// "CUCPULNK", a u32 count, then each unit as a u64 size and its bytes; InvalidPtx when the
// units do not link (two definitions of one name).
Result<std::string> make_link_image(const std::vector<std::string>& units);
// The units of an image that starts with the magic; nullopt for anything else.
std::optional<std::vector<std::string>> read_link_image(const void* image);

}  // namespace cucpu::core
