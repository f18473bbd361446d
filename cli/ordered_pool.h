// An ordered worker pool: worker threads take items one at a time from a
// source (in its order), turn each into a result in any order, and the
// calling thread receives the results strictly in the source's order, at
// most a bounded window ahead, so memory stays flat however long the source.
// The work (auditing and formatting a file) is done by the workers; the
// calling thread only consumes (writes bytes).
//
// Failures are clean: a worker's exception (std::bad_alloc) or a thread that
// cannot be created stops the pool, every started thread is joined, and
// Run() returns what went wrong; nothing reaches std::terminate.
#ifndef CANASTA_CLI_ORDERED_POOL_H_
#define CANASTA_CLI_ORDERED_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace canasta {

struct PoolOptions {
  int jobs = 1;       // worker threads, at least 1
  size_t window = 0;  // results waiting for the consumer; 0: 4 per job
  // Starts a thread; tests replace it to make thread creation fail.
  std::function<std::thread(std::function<void()>)> spawn = [](std::function<void()> f) {
    return std::thread(std::move(f));
  };
};

struct PoolOutcome {
  size_t consumed = 0;       // results handed to the consumer
  std::exception_ptr error;  // what a worker, the source or the consumer threw
  size_t error_index = 0;    // the item it concerned (for a worker's error)
  std::string spawn_error;   // a thread that could not be created, and why
  bool ok() const { return !error && spawn_error.empty(); }
};

// `next(&item)` gives the next item or false at the end (called under a lock,
// one thread at a time); `work(item)` makes its result on a worker thread;
// `consume(result)` gets the results in order on the calling thread.
template <typename Item, typename Result>
PoolOutcome RunOrdered(const PoolOptions& options, const std::function<bool(Item*)>& next,
                       const std::function<Result(Item&)>& work,
                       const std::function<void(Result&)>& consume) {
  const int jobs = options.jobs < 1 ? 1 : options.jobs;
  const size_t window = options.window > 0 ? options.window : size_t(jobs) * 4;
  std::mutex mu;
  std::condition_variable changed;
  std::map<size_t, Result> done;
  size_t taken = 0;        // items handed to workers
  size_t consumed = 0;     // results handed to the consumer
  bool exhausted = false;  // the source is over: `taken` is the number of items
  bool stop = false;       // a failure: everyone leaves
  PoolOutcome outcome;

  auto fail = [&](std::exception_ptr e, size_t index) {  // under the lock
    if (!outcome.error) {
      outcome.error = e;
      outcome.error_index = index;
    }
    stop = true;
    changed.notify_all();
  };
  auto worker = [&]() {
    while (true) {
      size_t i;
      Item item;
      {
        std::unique_lock<std::mutex> lock(mu);
        changed.wait(lock, [&] { return stop || exhausted || taken < consumed + window; });
        if (stop || exhausted) return;
        try {
          if (!next(&item)) {
            exhausted = true;
            changed.notify_all();
            return;
          }
        } catch (...) {
          fail(std::current_exception(), taken);
          return;
        }
        i = taken++;
      }
      std::optional<Result> result;
      try {
        result.emplace(work(item));
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        fail(std::current_exception(), i);
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      done.emplace(i, std::move(*result));
      changed.notify_all();
    }
  };

  std::vector<std::thread> threads;
  for (int t = 0; t < jobs; ++t) {
    try {
      threads.push_back(options.spawn(worker));
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mu);
      outcome.spawn_error = "cannot start thread " + std::to_string(t + 1) + " of " +
                            std::to_string(jobs) + ": " + e.what();
      stop = true;
      changed.notify_all();
      break;
    }
  }
  while (!threads.empty()) {
    std::optional<Result> result;
    {
      std::unique_lock<std::mutex> lock(mu);
      changed.wait(lock, [&] {
        return stop || done.count(consumed) > 0 || (exhausted && consumed >= taken);
      });
      if (stop || done.count(consumed) == 0) break;
      auto it = done.find(consumed);
      result.emplace(std::move(it->second));
      done.erase(it);
    }
    try {
      consume(*result);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      fail(std::current_exception(), consumed);
      break;
    }
    std::lock_guard<std::mutex> lock(mu);
    ++consumed;
    changed.notify_all();
  }
  for (std::thread& t : threads) t.join();
  outcome.consumed = consumed;
  return outcome;
}

}  // namespace canasta

#endif  // CANASTA_CLI_ORDERED_POOL_H_
