// Each cudaError_t's name and message as a GPU's runtime gives them (error_strings.def,
// generated from tests/data/error_strings.tsv), for the host API and the device runtime;
// each CUresult's as the driver gives them (driver_error_strings.def).
#pragma once

namespace cucpu {

struct ErrorText {
  int code;
  const char* name;  // "cudaErrorInvalidValue"
  const char* text;  // "invalid argument"
};

// The entry of a cudaError_t value, or nullptr for a code the GPU's runtime does not know
// (cudaGetErrorName then says "unrecognized error code").
const ErrorText* find_error_text(int code);
// The same for a CUresult value as the driver's cuGetErrorName/String give it
// (driver_error_strings.def); nullptr for a code the driver does not know.
const ErrorText* find_driver_error_text(int code);

constexpr const char* kUnrecognizedError = "unrecognized error code";

}  // namespace cucpu
