// The ordered worker pool of `canasta audit` (cli/ordered_pool.h): results
// in the source's order whatever order the work finishes in, a bounded
// window, and clean failures.
#include "cli/ordered_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace canasta {
namespace {

// A source of the numbers 0..n-1.
std::function<bool(int*)> Counter(int n) {
  auto next = std::make_shared<int>(0);
  return [next, n](int* item) {
    if (*next >= n) return false;
    *item = (*next)++;
    return true;
  };
}

TEST(OrderedPool, ResultsComeInTheSourcesOrderWithinTheWindow) {
  for (int jobs : {1, 2, 7}) {
    PoolOptions options;
    options.jobs = jobs;
    options.window = 5;
    std::atomic<int> started{0};
    std::atomic<int> max_ahead{0};
    std::atomic<int> consumed{0};
    std::vector<int> order;
    PoolOutcome outcome = RunOrdered<int, std::string>(
        options, Counter(200),
        [&](int& i) {
          const int ahead = ++started - consumed;
          for (int m = max_ahead; ahead > m && !max_ahead.compare_exchange_weak(m, ahead);) {
          }
          // Later items finish first now and then.
          std::this_thread::sleep_for(std::chrono::microseconds((i * 7919) % 300));
          return "r" + std::to_string(i);
        },
        [&](std::string& r) {
          order.push_back(std::stoi(r.substr(1)));
          ++consumed;
        });
    ASSERT_TRUE(outcome.ok()) << jobs;
    EXPECT_EQ(outcome.consumed, 200u);
    ASSERT_EQ(order.size(), 200u);
    for (int i = 0; i < 200; ++i) ASSERT_EQ(order[size_t(i)], i) << "jobs " << jobs;
    // Never more items taken than the window beyond what was consumed (one
    // more may be counted while the consumer is between two results).
    EXPECT_LE(max_ahead.load(), 5 + 1) << jobs;
  }
}

TEST(OrderedPool, TheConsumerTakesResultsInBatches) {
  // One worker finishes in order: the consumer is woken once `batch` results
  // are ready, and once for the last ones after the source is over. Each
  // result records how many were finished when the consumer took it.
  PoolOptions options;
  options.jobs = 1;
  std::vector<int> ready_at_consume;
  auto run = [&](int n) {
    std::atomic<int> finished{0};
    ready_at_consume.clear();
    return RunOrdered<int, int>(
        options, Counter(n),
        [&](int& i) {
          ++finished;
          return i;
        },
        [&](int& r) { ready_at_consume.push_back(finished - r); });
  };
  options.window = 40;
  options.batch = 10;
  PoolOutcome outcome = run(205);
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.consumed, 205u);
  EXPECT_LE(outcome.wakeups, 205u / 10 + 1);
  EXPECT_GE(outcome.wakeups, 2u);
  ASSERT_EQ(ready_at_consume.size(), 205u);
  EXPECT_GE(ready_at_consume[0], 10);  // the first result waited for nine more
  // The default batch, a quarter of the window.
  options.batch = 0;
  options.window = 8;
  outcome = run(100);
  ASSERT_TRUE(outcome.ok());
  EXPECT_LE(outcome.wakeups, 100u / 2 + 1);
  ASSERT_EQ(ready_at_consume.size(), 100u);
  EXPECT_GE(ready_at_consume[0], 2);
  // Larger than the window: a full window wakes the consumer.
  options.batch = 1000;
  outcome = run(100);
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.consumed, 100u);
  EXPECT_GE(ready_at_consume[0], 8);
}

TEST(OrderedPool, AnEmptySourceConsumesNothing) {
  PoolOptions options;
  options.jobs = 3;
  int calls = 0;
  PoolOutcome outcome = RunOrdered<int, int>(
      options, Counter(0), [](int& i) { return i; }, [&](int&) { ++calls; });
  EXPECT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.consumed, 0u);
  EXPECT_EQ(calls, 0);
}

TEST(OrderedPool, AWorkersBadAllocStopsThePoolCleanly) {
  PoolOptions options;
  options.jobs = 3;
  std::vector<int> got;
  PoolOutcome outcome = RunOrdered<int, int>(
      options, Counter(1000),
      [](int& i) {
        if (i == 40) throw std::bad_alloc();
        return i;
      },
      [&](int& r) { got.push_back(r); });
  ASSERT_TRUE(outcome.error);
  EXPECT_EQ(outcome.error_index, 40u);
  EXPECT_THROW(std::rethrow_exception(outcome.error), std::bad_alloc);
  EXPECT_LE(got.size(), 40u);  // nothing at or after the failed item
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], int(i));
}

TEST(OrderedPool, AConsumerFailureStopsThePool) {
  PoolOptions options;
  options.jobs = 2;
  PoolOutcome outcome = RunOrdered<int, int>(
      options, Counter(100), [](int& i) { return i; },
      [](int& r) {
        if (r == 10) throw std::runtime_error("disk on fire");
      });
  ASSERT_TRUE(outcome.error);
  EXPECT_EQ(outcome.consumed, 10u);
}

TEST(OrderedPool, AThreadThatCannotStartFailsCleanly) {
  PoolOptions options;
  options.jobs = 3;
  int spawned = 0;
  options.spawn = [&](std::function<void()> f) {
    if (++spawned == 2)
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    return std::thread(std::move(f));
  };
  PoolOutcome outcome = RunOrdered<int, int>(
      options, Counter(100), [](int& i) { return i; }, [](int&) {});
  EXPECT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.spawn_error.rfind("cannot start thread 2 of 3: ", 0), 0u)
      << outcome.spawn_error;
  EXPECT_NE(outcome.spawn_error.find("Resource temporarily unavailable"), std::string::npos)
      << outcome.spawn_error;
}

}  // namespace
}  // namespace canasta
