// The moment a stream command has finished, as something any thread can test or wait for.
// Streams, events and host synchronisation all meet here: a command's Completion is what
// later commands of other streams wait on (events, the legacy stream's barriers), what
// cudaStreamQuery/cudaEventQuery test and what the synchronising calls block on.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include <boost/container/small_vector.hpp>

#include "support/spin_wait.h"

namespace cucpu::core {

class Completion {
 public:
  // Release: everything the command wrote is visible to whoever sees it done.
  void mark_done() {
    done_.store(1, std::memory_order_release);
    done_.notify_all();
  }
  bool is_done() const { return done_.load(std::memory_order_acquire) != 0; }
  // Until mark_done: a short spin (support/spin_wait.h), then a futex.
  void wait() const {
    if (!support::spin_until([this] { return is_done(); })) done_.wait(0, std::memory_order_acquire);
  }

 private:
  std::atomic<uint32_t> done_{0};
};

using CompletionRef = std::shared_ptr<Completion>;
// The few completions a synchronisation waits for: held inline (no allocation per launch).
using CompletionList = boost::container::small_vector<CompletionRef, 4>;

}  // namespace cucpu::core
