#include "thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>

namespace partonfit {

namespace {

// How long an idle worker keeps polling for the next job before it sleeps: a training step runs
// kernels back to back, so most jobs arrive within this window and skip the futex wake-up.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(100);

}  // namespace

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? static_cast<int>(hardware) : 1;
}

ThreadPool& ThreadPool::instance() {
  static ThreadPool pool([] {
    const char* requested = std::getenv("PARTONFIT_NATIVE_THREADS");
    if (requested != nullptr) {
      const int threads = std::atoi(requested);
      if (threads >= 1) return threads;
    }
    return available_cpus();
  }());
  return pool;
}

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    generation_.fetch_add(1);
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    const auto spin_until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    int polls = 0;
    while (generation_.load(std::memory_order_acquire) == seen) {
      if (++polls % 64 == 0 && std::chrono::steady_clock::now() > spin_until) break;
    }
    const std::function<void(int64_t)>* job = nullptr;
    int64_t tasks = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
      if (stopping_) return;
      seen = generation_.load();
      job = job_;
      tasks = job_tasks_;
      if (job == nullptr) continue;
      active_workers_.fetch_add(1, std::memory_order_acq_rel);
    }
    for (int64_t task = next_task_.fetch_add(1); task < tasks; task = next_task_.fetch_add(1)) {
      (*job)(task);
    }
    active_workers_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

void ThreadPool::run_tasks(int64_t tasks, const std::function<void(int64_t)>& task) {
  if (tasks <= 0) return;
  std::unique_lock<std::mutex> region(caller_, std::try_to_lock);
  if (tasks == 1 || workers_.empty() || !region.owns_lock()) {
    for (int64_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &task;
    job_tasks_ = tasks;
    next_task_.store(0);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  wake_.notify_all();
  for (int64_t i = next_task_.fetch_add(1); i < tasks; i = next_task_.fetch_add(1)) task(i);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = nullptr;
  }
  // Workers that joined the job may still be finishing their last task.
  while (active_workers_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

void ThreadPool::parallel_for(int64_t count, int64_t grain,
                              const std::function<void(int64_t, int64_t)>& body) {
  if (count <= 0) return;
  const int64_t by_grain = (count + std::max<int64_t>(grain, 1) - 1) / std::max<int64_t>(grain, 1);
  // A few chunks per thread, handed out as threads free up: a thread the OS delays (other
  // processes on the same cores) leaves its share to the others.
  const int64_t chunks = std::min<int64_t>(4 * threads(), by_grain);
  if (chunks <= 1) {
    body(0, count);
    return;
  }
  run_tasks(chunks, [&](int64_t chunk) {
    body(count * chunk / chunks, count * (chunk + 1) / chunks);
  });
}

}  // namespace partonfit
