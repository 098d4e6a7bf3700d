// XORWOW, MRG32k3a and Philox4_32_10 in the order of NVIDIA's host API, as the H200's
// libcurand lays them out (checked against its output, tests/e2e/curand_sequences.cu):
//
// - XORWOW and MRG32k3a keep T generator threads, thread t on subsequence t of the seed
//   (curand_init(seed, t, ...)); T is 4096 for XORWOW, 81920 for MRG32k3a (4096 in the
//   legacy ordering). A call's results are made in slots: a slot is one 32-bit value, one
//   uniform (float or double) or one pair of normals, and slot j of the generator's life
//   runs on thread j mod T, which continues its own sequence. An offset of k puts the next
//   slot at k and advances threads 0 .. k mod T - 1 one value further than the others.
//   A Poisson count is a slot too: one 32-bit value, or (from lambda 2000 on) the thread's
//   next float normal, a pair's first made there or its second kept from its last count.
// - Philox4_32_10 is a function of the result's index: result g is element g mod 4 of slot
//   g / 4, which runs on thread (g / 4) mod 65536 at counter (g / 4) / 65536; for doubles
//   (two 32-bit values each) the slot reads that counter and the next. The offset and every call move
//   g by the number of results.
#include <algorithm>
#include <cstring>
#include <vector>

#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"

namespace cucpu::curand {
namespace {

constexpr unsigned xorwow_threads = 4096;
constexpr unsigned mrg_threads = 81920;
constexpr unsigned mrg_legacy_threads = 4096;
constexpr unsigned philox_threads = 65536;

template <typename T>
T* at(const Request& request, size_t index) {
  return static_cast<T*>(request.out) + index;
}

bool is_pair(Output output) {
  return output == Output::normal || output == Output::normal_double || output == Output::log_normal ||
         output == Output::log_normal_double;
}

// Threads with a state each, results made slot by slot (XORWOW, MRG32k3a).
template <typename State>
class SlotEngine : public Engine {
 public:
  SlotEngine(const EngineSettings& settings, unsigned threads) : states_(threads), next_slot_(settings.offset) {
    for (unsigned t = 0; t < threads; ++t) {
      unsigned long long ahead = settings.offset / threads + (t < settings.offset % threads ? 1 : 0);
      curand_init(settings.seed, t, ahead, &states_[t]);
    }
  }

  void fill(const Request& request) override {
    size_t per_slot = is_pair(request.output) ? 2 : 1;
    for (size_t first = 0; first < request.count; first += per_slot) {
      size_t thread = next_slot_ % states_.size();
      ++next_slot_;
      if (request.counts_from == CountsFrom::normal_pairs)
        make_normal_record(thread, static_cast<unsigned*>(request.out) + 4 * first);
      else
        make_slot(states_[thread], request, first);
    }
  }

 protected:
  virtual void make_slot(State& state, const Request& request, size_t first) = 0;
  // The raw values of a pair of float normals (those the normal transform takes).
  virtual void make_normal_pair(State& state, unsigned* raw) = 0;

 private:
  // A result of curand_poisson_from_normal: the thread's next float normal, which comes in
  // pairs, the second kept (curand_normal's boxmuller_flag) for the thread's next such result.
  void make_normal_record(size_t thread, unsigned* record) {
    if (pending_.empty()) pending_.resize(states_.size());
    Pending& pending = pending_[thread];
    if (!pending.kept) make_normal_pair(states_[thread], pending.raw);
    record[0] = pending.raw[0];
    record[1] = pending.raw[1];
    record[2] = pending.kept;  // which of the pair
    record[3] = 0;
    pending.kept = !pending.kept;
  }

  struct Pending {
    bool kept = false;
    unsigned raw[2] = {};
  };

  std::vector<State> states_;
  std::vector<Pending> pending_;
  unsigned long long next_slot_;
};

class XorwowEngine : public SlotEngine<curandStateXORWOW_t> {
 public:
  using SlotEngine::SlotEngine;

  Transform transform(Output output) const override {
    switch (output) {
      case Output::normal:
      case Output::log_normal:
        return Transform::box_muller_float;
      case Output::normal_double:
      case Output::log_normal_double:
        return Transform::box_muller_double;
      default:
        return Transform::none;
    }
  }

 private:
  void make_normal_pair(curandStateXORWOW_t& state, unsigned* raw) override {
    raw[0] = ::curand(&state);
    raw[1] = ::curand(&state);
  }

  void make_slot(curandStateXORWOW_t& state, const Request& request, size_t first) override {
    switch (request.output) {
      case Output::bits32:
        *at<unsigned>(request, first) = ::curand(&state);
        break;
      case Output::uniform:
        *at<float>(request, first) = curand_uniform(&state);
        break;
      case Output::uniform_double:
        *at<double>(request, first) = curand_uniform_double(&state);
        break;
      case Output::normal:
      case Output::log_normal:
        for (int i = 0; i < 2; ++i) *at<unsigned>(request, first + i) = ::curand(&state);
        break;
      case Output::normal_double:
      case Output::log_normal_double:
        for (int i = 0; i < 4; ++i) *at<unsigned>(request, first * 2 + i) = ::curand(&state);
        break;
      case Output::poisson:
        *at<unsigned>(request, first) = ::curand(&state);
        break;
      case Output::bits64:
        break;
    }
  }
};

class Mrg32k3aEngine : public SlotEngine<curandStateMRG32k3a_t> {
 public:
  using SlotEngine::SlotEngine;

  Transform transform(Output output) const override {
    switch (output) {
      case Output::normal:
      case Output::log_normal:
        return Transform::box_muller_mrg_float;
      case Output::normal_double:
      case Output::log_normal_double:
        return Transform::box_muller_mrg_double;
      default:
        return Transform::none;
    }
  }

 private:
  void make_normal_pair(curandStateMRG32k3a_t& state, unsigned* raw) override {
    float u = curand_uniform(&state);  // curand_box_muller_mrg's
    float v = curand_uniform(&state) * CURAND_2PI;
    std::memcpy(&raw[0], &u, 4);
    std::memcpy(&raw[1], &v, 4);
  }

  void make_slot(curandStateMRG32k3a_t& state, const Request& request, size_t first) override {
    switch (request.output) {
      case Output::bits32:
        *at<unsigned>(request, first) = ::curand(&state);
        break;
      case Output::uniform:
        *at<float>(request, first) = curand_uniform(&state);
        break;
      case Output::uniform_double:
        *at<double>(request, first) = curand_uniform_double(&state);
        break;
      case Output::normal:
      case Output::log_normal: {  // curand_box_muller_mrg's two uniforms
        float u = curand_uniform(&state);
        *at<float>(request, first) = u;
        *at<float>(request, first + 1) = curand_uniform(&state) * CURAND_2PI;
        break;
      }
      case Output::normal_double:
      case Output::log_normal_double: {  // curand_box_muller_mrg_double's
        double u = curand_uniform_double(&state);
        *at<double>(request, first) = u;
        *at<double>(request, first + 1) = curand_uniform_double(&state) * 2.0;
        break;
      }
      case Output::poisson:
        *at<unsigned>(request, first) = ::curand(&state);
        break;
      case Output::bits64:
        break;
    }
  }
};

class PhiloxEngine : public Engine {
 public:
  explicit PhiloxEngine(const EngineSettings& settings)
      : key_{unsigned(settings.seed), unsigned(settings.seed >> 32)}, next_(settings.offset) {}

  Transform transform(Output output) const override {
    switch (output) {
      case Output::normal:
      case Output::log_normal:
        return Transform::box_muller_float;
      case Output::normal_double:
      case Output::log_normal_double:
        return Transform::box_muller_double;
      default:
        return Transform::none;
    }
  }

  void prepare(Request& request) override {
    request.position = next_;
    next_ += request.count;
    if (!is_pair(request.output)) return;
    request.phase = request.position % 2;
    if (request.phase) pair_raw(request, request.position - 1, request.lead);
    if ((request.phase + request.count) % 2) pair_raw(request, request.position + request.count - 1, request.tail);
  }

  void fill(const Request& request) override {
    if (is_pair(request.output)) {
      // Pair k of the buffer begins at result 2k - phase; its raw values go there.
      size_t pairs = (request.count + request.phase + 1) / 2;
      for (size_t k = 0; k < pairs; ++k) {
        long long first = (long long)(2 * k) - request.phase;
        if (first < 0 || first + 1 >= (long long)request.count) continue;  // in lead or tail
        unsigned raw[4];
        pair_raw(request, request.position + first, raw);
        if (result_bytes(request.output) == 8)
          std::memcpy(at<double>(request, first), raw, 16);
        else
          std::memcpy(at<float>(request, first), raw, 8);
      }
    } else {
      for (size_t i = 0; i < request.count; ++i) {
        unsigned raw[8];
        unsigned long long g = request.position + i;
        slot_raw(g / 4, result_bytes(request.output) == 8, raw);
        make_result(request, i, raw, g % 4);
      }
    }
  }

 private:
  // The slot's 32-bit values: 4, or 8 for doubles, which read the next counter as well (the
  // first of the thread's next slot; the H200's Philox does so).
  void slot_raw(unsigned long long slot, bool wide, unsigned* raw) const {
    unsigned long long thread = slot % philox_threads, counter = slot / philox_threads;
    for (unsigned half = 0; half < (wide ? 2u : 1u); ++half) {
      unsigned long long c = counter + half;
      uint4 v = curand_Philox4x32_10(
          make_uint4(unsigned(c), unsigned(c >> 32), unsigned(thread), unsigned(thread >> 32)), key_);
      raw[half * 4 + 0] = v.x;
      raw[half * 4 + 1] = v.y;
      raw[half * 4 + 2] = v.z;
      raw[half * 4 + 3] = v.w;
    }
  }

  // The raw values of the pair of normals result g belongs to: 2 for floats, 4 for doubles.
  void pair_raw(const Request& request, unsigned long long g, unsigned* out) const {
    bool wide = result_bytes(request.output) == 8;
    unsigned raw[8];
    slot_raw(g / 4, wide, raw);
    unsigned pair = g % 4 / 2;
    if (wide)
      std::memcpy(out, raw + 4 * pair, 16);
    else
      std::memcpy(out, raw + 2 * pair, 8);
  }

  static void make_result(const Request& request, size_t i, const unsigned* raw, unsigned element) {
    switch (request.output) {
      case Output::bits32:
      case Output::poisson:
        *at<unsigned>(request, i) = raw[element];
        break;
      case Output::uniform:
        *at<float>(request, i) = _curand_uniform(raw[element]);
        break;
      case Output::uniform_double:
        *at<double>(request, i) = _curand_uniform_double_hq(raw[2 * element], raw[2 * element + 1]);
        break;
      default:
        break;
    }
  }

  uint2 key_;
  unsigned long long next_;
};

}  // namespace

std::unique_ptr<Engine> make_xorwow_engine(const EngineSettings& settings) {
  if (settings.ordering == CURAND_ORDERING_PSEUDO_SEEDED || settings.ordering == CURAND_ORDERING_PSEUDO_DYNAMIC)
    return nullptr;
  return std::make_unique<XorwowEngine>(settings, xorwow_threads);
}

std::unique_ptr<Engine> make_mrg32k3a_engine(const EngineSettings& settings) {
  return std::make_unique<Mrg32k3aEngine>(
      settings, settings.ordering == CURAND_ORDERING_PSEUDO_LEGACY ? mrg_legacy_threads : mrg_threads);
}

std::unique_ptr<Engine> make_philox_engine(const EngineSettings& settings) {
  return std::make_unique<PhiloxEngine>(settings);
}

}  // namespace cucpu::curand
