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

#include <algorithm>
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
  // Results ready in order before the consumer is woken (fewer wake-ups: on
  // a machine with as many cores as jobs, each one takes a worker's core for
  // a moment); the last results of the source and a full window wake it
  // whatever their number. 0: a quarter of the window. At least 1.
  size_t batch = 0;
  // Starts a thread; tests replace it to make thread creation fail.
  std::function<std::thread(std::function<void()>)> spawn = [](std::function<void()> f) {
    return std::thread(std::move(f));
  };
};

struct PoolOutcome {
  size_t consumed = 0;       // results handed to the consumer
  size_t wakeups = 0;        // times the consumer took a run of results
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
  const size_t batch =
      std::min(window, options.batch > 0 ? options.batch : std::max<size_t>(1, window / 4));
  std::mutex mu;
  // Few wake-ups: the consumer is woken only when the result it waits for
  // is ready and `batch` results are (or the source is over, or a worker
  // waits for space), workers only when the window was full; the consumer
  // takes every result that is ready in one go.
  std::condition_variable result_ready, space;
  std::map<size_t, Result> done;
  size_t taken = 0;        // items handed to workers
  size_t consumed = 0;     // results handed to the consumer
  int waiting = 0;         // workers waiting for space in the window
  bool exhausted = false;  // the source is over: `taken` is the number of items
  bool stop = false;       // a failure: everyone leaves
  PoolOutcome outcome;

  // Under the lock: whether the consumer has a run of results to take now.
  auto consumable = [&]() {
    return done.count(consumed) > 0 && (done.size() >= batch || exhausted || waiting > 0);
  };
  auto wake_all = [&]() {  // under the lock
    result_ready.notify_all();
    space.notify_all();
  };
  auto fail = [&](std::exception_ptr e, size_t index) {  // under the lock
    if (!outcome.error) {
      outcome.error = e;
      outcome.error_index = index;
    }
    stop = true;
    wake_all();
  };
  auto worker = [&]() {
    while (true) {
      size_t i;
      Item item;
      {
        std::unique_lock<std::mutex> lock(mu);
        ++waiting;
        if (taken >= consumed + window && consumable()) result_ready.notify_one();
        space.wait(lock, [&] { return stop || exhausted || taken < consumed + window; });
        --waiting;
        if (stop || exhausted) return;
        try {
          if (!next(&item)) {
            exhausted = true;
            wake_all();
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
      if (consumable()) result_ready.notify_one();
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
      wake_all();
      break;
    }
  }
  std::vector<Result> run;  // the results taken at one wake-up
  bool running = !threads.empty();
  while (running) {
    run.clear();
    {
      std::unique_lock<std::mutex> lock(mu);
      result_ready.wait(lock, [&] {
        return stop || consumable() || (exhausted && consumed >= taken);
      });
      if (stop) break;
      for (auto it = done.find(consumed); it != done.end() && it->first == consumed + run.size();
           it = done.erase(it))
        run.push_back(std::move(it->second));
      if (run.empty()) break;  // the source is over and everything consumed
      ++outcome.wakeups;
    }
    size_t n = 0;
    try {
      for (Result& r : run) {
        consume(r);
        ++n;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      consumed += n;
      fail(std::current_exception(), consumed);
      break;
    }
    std::lock_guard<std::mutex> lock(mu);
    consumed += n;
    if (waiting > 0) space.notify_all();
  }
  for (std::thread& t : threads) t.join();
  outcome.consumed = consumed;
  return outcome;
}

}  // namespace canasta

#endif  // CANASTA_CLI_ORDERED_POOL_H_
