// A small parallel loop: the readers and the reporters share it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace occcalc::inspect {

/// Runs `task(i, state)` for every i below `count` on up to `workers` threads
/// (the caller's among them), handing indices out one at a time; each thread
/// has its own default-constructed `State` (`std::monostate` for none).
/// Then rethrows the exception of the lowest failing i, so the error
/// reported does not depend on timing.
/// A thread that cannot be started is not an error: fewer threads do the work.
/// Once a task fails, the tasks not yet started are skipped (the error ends
/// the whole run).
template <typename State, typename Task>
void parallel_for(std::size_t count, unsigned workers, Task&& task) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  // After a failure no new index is handed out: indices go out in order, so
  // every index below a failing one has started, and the lowest failing
  // index is still the one reported.
  std::atomic<bool> failed{false};
  const auto work = [&] {
    State state{};
    for (std::size_t i = next++; i < count && !failed; i = next++) {
      try {
        task(i, state);
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    }
  };
  const unsigned threads_wanted = std::max(1u, std::min<unsigned>(workers, static_cast<unsigned>(count)));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < threads_wanted; ++t) {
    try {
      threads.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones started, and this one, do the rest
    }
  }
  work();
  for (auto& t : threads) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

/// Slices of `slice_size` that cover `count` items.
constexpr std::size_t slice_count(std::size_t count, std::size_t slice_size) noexcept {
  return (count + slice_size - 1) / slice_size;
}

/// `parallel_for` over `count` items cut into slices of `slice_size`:
/// `task(slice, first, end, state)` for each slice, `[first, end)` its items.
template <typename State, typename Task>
void parallel_for_slices(std::size_t count, std::size_t slice_size, unsigned workers, Task&& task) {
  parallel_for<State>(slice_count(count, slice_size), workers, [&](std::size_t slice, State& state) {
    task(slice, slice * slice_size, std::min(count, (slice + 1) * slice_size), state);
  });
}

}  // namespace occcalc::inspect
