// A small pool of worker threads for the element-wise, reduction and layout kernels, and for
// splitting matrix products across cores. The calling (JavaScript) thread always takes part, so
// a pool of n threads starts n - 1 workers.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace partonfit {

class ThreadPool {
 public:
  // The process-wide pool, sized by PARTONFIT_NATIVE_THREADS or the CPUs this process may use.
  static ThreadPool& instance();

  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Threads that run a parallel loop, the caller included.
  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs body(begin, end) over [0, count) split into at most 4 * threads() contiguous chunks of
  // at least `grain` items, handed to threads as they free up; runs inline when one chunk
  // suffices or when another caller holds the pool. Returns after every chunk has finished.
  void parallel_for(int64_t count, int64_t grain,
                    const std::function<void(int64_t begin, int64_t end)>& body);

  // Runs task(i) for i in [0, tasks), handing tasks to threads as they free up.
  void run_tasks(int64_t tasks, const std::function<void(int64_t task)>& task);

 private:
  void worker_loop();

  std::vector<std::thread> workers_;
  std::mutex caller_;  // one parallel region at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int64_t)>* job_ = nullptr;  // guarded by mutex_
  int64_t job_tasks_ = 0;                               // guarded by mutex_
  bool stopping_ = false;                               // guarded by mutex_
  std::atomic<uint64_t> generation_{0};  // changes (under mutex_) when a job is published
  std::atomic<int64_t> next_task_{0};    // the next task index to hand out
  std::atomic<int> active_workers_{0};   // workers inside the current job
};

// Number of CPUs this process may run on (sched_getaffinity), at least 1.
int available_cpus();

}  // namespace partonfit
