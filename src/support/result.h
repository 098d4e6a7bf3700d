// Result<T>: the value of an operation that can fail, or the Error saying why.
// std::expected is C++23; this is the small subset we need, with the same spelling
// (has_value, value, error, operator bool, operator*, operator->) so that moving to
// std::expected later is a rename. Nothing in cucpu throws across a stage boundary.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace cucpu {

// What went wrong, in terms the API layers can map to cudaError_t / CUresult in one place.
enum class ErrorCode {
  InvalidValue,           // a bad argument
  InvalidPitchValue,      // a pitch narrower than the row it holds, or above the device's maximum
  InvalidPtx,             // PTX that does not parse or check
  InvalidImage,           // a malformed fatbin
  NoKernelImage,          // a fatbin with nothing cucpu can run (no PTX)
  InvalidDeviceFunction,  // an unknown kernel
  InvalidConfiguration,   // a launch the device cannot run
  LaunchOutOfResources,   // a launch asking for more than the kernel allows (launch bounds)
  CooperativeLaunchTooLarge,  // a cooperative grid larger than the device holds at once
  MemoryAllocation,       // out of (host) memory
  HostMemoryAlreadyRegistered,  // cudaHostRegister over memory the device knows already
  HostMemoryNotRegistered,      // cudaHostUnregister of memory that was not registered
  PeerAccessAlreadyEnabled,     // cudaDeviceEnablePeerAccess twice
  PeerAccessNotEnabled,         // cudaDeviceDisablePeerAccess without enabling
  NotSupported,           // a feature cucpu does not implement yet
  LaunchFailure,          // a kernel failed while it ran
  InvalidPc,              // a kernel jumped to an address that holds no code (a bad function pointer)
  IllegalAddress,         // a kernel touched memory it cannot (SIGSEGV/SIGBUS), or overflowed its stack
  MisalignedAddress,      // a kernel made a misaligned access (SIGBUS BUS_ADRALN)
  IllegalInstruction,     // a kernel ran an instruction the GPU refuses when it runs (a misaligned tensor box)
  Assert,                 // a device-side assert() failed
  NotReady,               // stream work that has not finished (a query's answer, not a failure)
  InvalidResourceHandle,  // a stream or event handle that is not (or no longer) valid for the call
  NotPermitted,           // a call made where it may not be (CUDA from a stream's host function)
  IllegalState,           // a call out of order (ending a capture that never began)
  StreamCaptureUnsupported,  // an operation a capturing stream cannot take (synchronising it)
  StreamCaptureUnmatched,    // a capture ended on a stream other than the one it began on
  StreamCaptureInvalidated,  // a capture an error broke (an unsafe call during it)
  StreamCaptureWrongThread,  // a global or thread-local capture ended by another thread
  GraphExecUpdateFailure,    // cudaGraphExecUpdate with a graph of another shape
  UnsupportedDevSideSync,    // device-side cudaDeviceSynchronize in a module for a 9.0+ device
  UnsupportedLimit,          // a device limit this device does not have
  InvalidDevice,             // a device ordinal no device has
  InvalidClusterSize,        // a cluster shape the launch cannot have (grid not a multiple, too many blocks)
  Unknown,
};

struct Error {
  ErrorCode code = ErrorCode::Unknown;
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const T& value() const& { return std::get<0>(state_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), failed_(true) {}

  bool has_value() const { return !failed_; }
  explicit operator bool() const { return !failed_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool failed_ = false;
};

inline Error make_error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

}  // namespace cucpu
