// Warp intrinsics: shuffles, votes, reductions, match, activemask, __syncwarp,
// and block-wide vote barriers.
__global__ void warp_ops(int* out, float* fout) {
  int lane = threadIdx.x & 31;
  int v = lane * 3;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  float f = __shfl_down_sync(0xffffffffu, (float)lane, 1);
  f += __shfl_up_sync(0xffffffffu, f, 2);
  double d = __shfl_sync(0xffffffffu, (double)f, 0);
  unsigned ballot = __ballot_sync(0xffffffffu, lane & 1);
  int all = __all_sync(0xffffffffu, lane < 32);
  int any = __any_sync(0xffffffffu, lane == 3);
  unsigned sum = __reduce_add_sync(0xffffffffu, (unsigned)lane);
  int mn = __reduce_min_sync(0xffffffffu, -lane);
  unsigned mask = __match_any_sync(__activemask(), lane / 4);
  __syncwarp();
  int count = __syncthreads_count(lane & 1);
  int band = __syncthreads_and(lane < 40);
  int bor = __syncthreads_or(lane == 5);
  out[threadIdx.x] = v + ballot + all + any + sum + mn + mask + count + band + bor + __popc(ballot) + __clz(v) + __brev(v) + __ffs(v);
  fout[threadIdx.x] = f + (float)d;
}
