// The stream-ordered allocator's pool (core/memory_pool.h): which freed blocks a stream
// may reuse, the release threshold, cudaMemPoolTrimTo and the usage counters.
#include "core/memory_pool.h"

#include <gtest/gtest.h>

#include "core/memory_registry.h"

using namespace cucpu::core;

namespace {

constexpr size_t kBlock = 1 << 20;
constexpr uint64_t kStreamA = 101, kStreamB = 202;

CompletionRef pending() { return std::make_shared<Completion>(); }

void* take(MemoryPool& pool, uint64_t stream, CompletionRef* wait_for = nullptr) {
  auto block = pool.allocate(kBlock, stream);
  EXPECT_TRUE(block.has_value());
  if (wait_for) *wait_for = block->wait_for;
  return block->pointer;
}

TEST(MemoryPool, SameStreamReusesAPendingFree) {
  MemoryPool pool(0);
  void* first = take(pool, kStreamA);
  ASSERT_TRUE(pool.free(first, kStreamA, pending()).has_value());
  CompletionRef wait_for;
  EXPECT_EQ(take(pool, kStreamA, &wait_for), first);  // ordered after the free by the stream itself
  EXPECT_EQ(wait_for, nullptr);
}

TEST(MemoryPool, OtherStreamGetsAPendingFreeOnlyWithADependency) {
  MemoryPool pool(0);
  void* first = take(pool, kStreamA);
  CompletionRef freed = pending();
  ASSERT_TRUE(pool.free(first, kStreamA, freed).has_value());
  CompletionRef wait_for;
  EXPECT_EQ(take(pool, kStreamB, &wait_for), first);  // internal dependencies are allowed by default
  EXPECT_EQ(wait_for, freed);
}

TEST(MemoryPool, NoInternalDependenciesMeansFreshMemoryWhileTheFreeIsPending) {
  MemoryPool pool(0);
  pool.set_reuse_policy(ReusePolicy{.allow_opportunistic = true, .allow_internal_dependencies = false});
  void* first = take(pool, kStreamA);
  CompletionRef freed = pending();
  ASSERT_TRUE(pool.free(first, kStreamA, freed).has_value());
  void* second = take(pool, kStreamB);
  EXPECT_NE(second, first);
  EXPECT_EQ(pool.usage().reserved, 2 * kBlock);
  // Once the stream has reached the free, the block is anyone's (opportunistic reuse).
  pool.set_release_threshold(UINT64_MAX);
  pool.reached(freed);
  EXPECT_EQ(take(pool, kStreamB), first);
}

TEST(MemoryPool, NoOpportunisticReuseKeepsReachedBlocksFromOtherStreams) {
  MemoryPool pool(0);
  pool.set_reuse_policy(ReusePolicy{.allow_opportunistic = false, .allow_internal_dependencies = false});
  pool.set_release_threshold(UINT64_MAX);
  void* first = take(pool, kStreamA);
  CompletionRef freed = pending();
  ASSERT_TRUE(pool.free(first, kStreamA, freed).has_value());
  pool.reached(freed);
  EXPECT_NE(take(pool, kStreamB), first);
  EXPECT_EQ(take(pool, kStreamA), first);
}

TEST(MemoryPool, ThresholdZeroReleasesAtTheFree) {
  MemoryPool pool(0);
  void* first = take(pool, kStreamA);
  EXPECT_EQ(pool.usage().used, kBlock);
  CompletionRef freed = pending();
  ASSERT_TRUE(pool.free(first, kStreamA, freed).has_value());
  EXPECT_EQ(pool.usage().used, 0u);
  EXPECT_EQ(pool.usage().reserved, kBlock);  // not reached yet: still reserved
  pool.reached(freed);
  EXPECT_EQ(pool.usage().reserved, 0u);
  EXPECT_FALSE(memory().find(first).has_value());  // back to the system
  EXPECT_EQ(pool.usage().reserved_high, kBlock);
  EXPECT_EQ(pool.usage().used_high, kBlock);
}

TEST(MemoryPool, HighThresholdKeepsMemoryUntilTrim) {
  MemoryPool pool(0);
  pool.set_release_threshold(UINT64_MAX);
  void* a = take(pool, kStreamA);
  void* b = take(pool, kStreamB);
  CompletionRef freed_a = pending(), freed_b = pending();
  ASSERT_TRUE(pool.free(a, kStreamA, freed_a).has_value());
  ASSERT_TRUE(pool.free(b, kStreamB, freed_b).has_value());
  pool.trim_to(0);
  EXPECT_EQ(pool.usage().reserved, 2 * kBlock);  // pending frees are not idle memory yet
  pool.reached(freed_a);
  pool.reached(freed_b);
  EXPECT_EQ(pool.usage().reserved, 2 * kBlock);
  pool.trim_to(kBlock);
  EXPECT_EQ(pool.usage().reserved, kBlock);
  pool.trim_to(0);
  EXPECT_EQ(pool.usage().reserved, 0u);
  pool.reset_reserved_high();
  EXPECT_EQ(pool.usage().reserved_high, 0u);
}

TEST(MemoryPool, FreeOfAForeignPointerIsAnError) {
  MemoryPool pool(0);
  int local = 0;
  EXPECT_FALSE(pool.free(&local, kStreamA, pending()).has_value());
  void* block = take(pool, kStreamA);
  ASSERT_TRUE(pool.free(block, kStreamA, pending()).has_value());
  EXPECT_FALSE(pool.free(block, kStreamA, pending()).has_value());  // twice
}

TEST(MemoryPool, DirectoryKnowsPoolsAndTheirBlocks) {
  PoolRef pool = create_pool(0);
  EXPECT_EQ(find_pool(pool.get()), pool);
  void* block = take(*pool, kStreamA);
  EXPECT_EQ(pool_of(block), pool);
  ASSERT_TRUE(pool->free(block, kStreamA, pending()).has_value());
  EXPECT_EQ(pool_of(block), nullptr);
  EXPECT_TRUE(destroy_pool(pool.get()).has_value());
  EXPECT_EQ(find_pool(pool.get()), nullptr);
  EXPECT_FALSE(destroy_pool(default_pool(0).get()).has_value());  // default pools stay
  EXPECT_EQ(current_pool(0), default_pool(0));
}

// A block reused by another stream and freed there again stays in use until that
// second free is reached, whatever happens to the first free.
TEST(MemoryPool, ReachingAnOldFreeDoesNotReleaseTheBlocksNewUse) {
  MemoryPool pool(0);
  void* first = take(pool, kStreamA);
  CompletionRef freed_on_a = pending(), freed_on_b = pending();
  ASSERT_TRUE(pool.free(first, kStreamA, freed_on_a).has_value());
  CompletionRef wait_for;
  ASSERT_EQ(take(pool, kStreamB, &wait_for), first);
  ASSERT_TRUE(pool.free(first, kStreamB, freed_on_b).has_value());
  pool.reached(freed_on_a);
  EXPECT_EQ(pool.usage().reserved, kBlock);
  EXPECT_TRUE(memory().find(first).has_value());
  pool.reached(freed_on_b);
  EXPECT_EQ(pool.usage().reserved, 0u);
}

}  // namespace
