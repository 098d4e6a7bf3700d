// MTGP32 in the order of NVIDIA's host API (checked against the H200's libcurand): B
// generator blocks, block b on parameter set b of mtgp32dc_params_fast_11213, seeded as
// curandMakeMTGP32KernelState seeds it; the 32-bit values come in chunks of 256 (one per
// thread of a block step), chunk c from block c mod B, so value v of the whole sequence is
// value (v / 256 / B) * 256 + v mod 256 of block (v / 256) mod B. B is 192, or 64 in the
// legacy ordering. Every result takes one value; a call continues where the last one ended.
#include <array>
#include <vector>

// device_api.h defines the headers' QUALIFIERS for host compilation: it comes first.
// clang-format off
#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"

#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>
// clang-format on

namespace cucpu::curand {
namespace {

constexpr unsigned chunk = 256;

// One block's MTGP32 sequence, made one value at a time: the values a block step of 256
// threads makes in parallel, in thread order (each thread reads only state words the step
// does not write, so the order of the writes does not matter).
class MtgpBlock {
 public:
  MtgpBlock(const mtgp32_kernel_params_t& params, unsigned index, unsigned seed) : params_(&params), index_(index) {
    mtgp32_init_state(state_.data(), &mtgp32dc_params_fast_11213[index], seed);
  }

  unsigned next() {
    mtgp32_kernel_params_t* k = const_cast<mtgp32_kernel_params_t*>(params_);
    unsigned pos = params_->pos_tbl[index_];
    unsigned r = para_rec(k, word(at_), word(at_ + 1), word(at_ + pos), index_);
    word(at_ + MTGPDC_N) = r;
    unsigned o = temper(k, r, word(at_ + pos - 1), index_);
    ++at_;
    return o;
  }

 private:
  unsigned& word(unsigned long long i) { return state_[i & MTGP32_STATE_MASK]; }

  const mtgp32_kernel_params_t* params_;
  unsigned index_;
  std::array<unsigned, MTGP32_STATE_SIZE> state_{};
  unsigned long long at_ = 0;
};

// curandMakeMTGP32Constants's tables, in host memory.
const mtgp32_kernel_params_t& kernel_params() {
  static const mtgp32_kernel_params_t* params = [] {
    auto* p = new mtgp32_kernel_params_t{};
    p->mask[0] = mtgp32dc_params_fast_11213[0].mask;
    for (int i = 0; i < CURAND_NUM_MTGP32_PARAMS; ++i) {
      const mtgp32_params_fast_t& set = mtgp32dc_params_fast_11213[i];
      p->pos_tbl[i] = set.pos;
      p->sh1_tbl[i] = set.sh1;
      p->sh2_tbl[i] = set.sh2;
      for (int j = 0; j < TBL_SIZE; ++j) {
        p->param_tbl[i][j] = set.tbl[j];
        p->temper_tbl[i][j] = set.tmp_tbl[j];
        p->single_temper_tbl[i][j] = set.flt_tmp_tbl[j];
      }
    }
    return p;
  }();
  return *params;
}

class MtgpEngine : public Engine {
 public:
  MtgpEngine(const EngineSettings& settings, unsigned blocks) {
    unsigned long long seed = settings.seed ^ (settings.seed >> 32);
    for (unsigned b = 0; b < blocks; ++b) blocks_.emplace_back(kernel_params(), b, unsigned(seed) + b + 1);
  }

  Transform transform(Output output) const override { return inverse_cdf_transform(output); }

  void prepare(Request& request) override { request.float_icdf_double = request.output == Output::normal_double; }

  void fill(const Request& request) override {
    for (size_t i = 0; i < request.count; ++i)
      store_raw_or_uniform(
          request, i, next(), [](unsigned x) { return _curand_uniform(x); },
          [](unsigned x) { return _curand_uniform_double(x); });
  }

 private:
  unsigned next() {
    unsigned long long c = at_ / chunk;
    ++at_;
    return blocks_[c % blocks_.size()].next();
  }

  std::vector<MtgpBlock> blocks_;
  unsigned long long at_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_mtgp32_engine(const EngineSettings& settings) {
  if (settings.ordering == CURAND_ORDERING_PSEUDO_DYNAMIC) return nullptr;
  return std::make_unique<MtgpEngine>(settings, settings.ordering == CURAND_ORDERING_PSEUDO_LEGACY ? 64 : 192);
}

}  // namespace cucpu::curand
