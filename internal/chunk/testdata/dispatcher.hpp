// A dispatcher that runs submitted tasks on a fixed set of workers.
#pragma once

#include <cstddef>
#include <functional>

namespace tasks {

// Dispatcher owns the workers and the queue they take tasks from. A task
// runs once, on whichever worker is free first; tasks submitted from one
// thread start in the order they were submitted.
class TASKS_EXPORT TASKS_LOCKABLE Dispatcher {
 public:
  // Creates a dispatcher with the given number of workers. The workers
  // start at once and wait for tasks; a count of zero uses one worker per
  // processor.
  explicit Dispatcher(std::size_t workers);

  // Stops accepting tasks, runs those already queued and joins the
  // workers. Destroying a dispatcher from one of its own tasks deadlocks.
  ~Dispatcher();

  // Submit queues a task. It returns false, without queueing it, once
  // Shutdown has been called: the caller keeps the task and may run it
  // itself.
  bool Submit(std::function<void()> task);

  // TrySubmit queues a task unless the queue already holds its limit;
  // unlike Submit it never blocks the caller on a full queue.
  bool TrySubmit(std::function<void()> task);

  // Shutdown stops accepting tasks. Those already queued still run; call
  // Wait to block until they have.
  void Shutdown();

  // Wait blocks until the queue is empty and every worker is idle. Tasks
  // submitted while it waits are waited for too.
  void Wait();

  // WaitFor is Wait with a limit: it reports whether the dispatcher became
  // idle before the timeout, in milliseconds, ran out.
  bool WaitFor(long timeout_ms);

  // Pending reports how many tasks are queued and not yet started. The
  // answer may be stale by the time the caller reads it.
  std::size_t Pending() const;

  // Workers reports how many workers the dispatcher runs.
  std::size_t Workers() const { return workers_; }

  // SetLimit bounds the queue: Submit blocks and TrySubmit fails while it
  // holds limit tasks. Zero removes the bound.
  void SetLimit(std::size_t limit);

  // Pause keeps the workers from starting new tasks; the tasks already
  // running finish. Submit still queues.
  void Pause();

  // Resume lets paused workers start tasks again.
  void Resume();

  // Stats counts what the dispatcher has done since it was created.
  struct Stats {
    std::size_t submitted = 0;  // tasks accepted by Submit or TrySubmit
    std::size_t rejected = 0;   // tasks refused after Shutdown or when full
    std::size_t completed = 0;  // tasks that returned
  };

  // Snapshot returns the counters as they are now.
  Stats Snapshot() const;

  // Drain runs the queued tasks on the calling thread, one after another,
  // until the queue is empty, and reports how many it ran.
  std::size_t Drain() {
    std::size_t ran = 0;
    for (;;) {
      std::function<void()> task;
      if (!TakeLocked(&task)) {
        break;
      }
      task();
      ++ran;
    }
    return ran;
  }

 private:
  // TakeLocked moves the oldest queued task into out and reports whether
  // there was one.
  bool TakeLocked(std::function<void()>* out);

  // Loop is what each worker runs until shutdown.
  void Loop();

  std::size_t workers_;
  std::size_t limit_ = 0;
  bool stopping_ = false;
};

}  // namespace tasks
