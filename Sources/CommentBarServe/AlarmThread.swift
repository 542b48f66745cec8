// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A thread of its own that rings at one monotonic deadline, waiting on a condition variable.
/// A sleeping task per alarm costs a task, a dispatch timer, libdispatch's manager thread and a
/// pool thread woken for the task before the one woken for the frame loop: at a ticker's 30
/// frames a second that was most of the renderer's CPU (docs/benchmarks.md). Here a ring is one
/// futex wake of this thread, and `ring` runs on it (it must not block: it wakes the frame loop).
final class AlarmThread: @unchecked Sendable {
    // Everything below is read and written with `lock` held.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var deadline: timespec?
    private var stopped = false
    private let ring: @Sendable () -> Void

    /// Nil when no thread could be started (the caller falls back to a sleeping task).
    static func start(ring: @escaping @Sendable () -> Void) -> AlarmThread? {
        let alarm = AlarmThread(ring: ring)
        return POSIXIO.startThread { alarm.run() } ? alarm : nil
    }

    private init(ring: @escaping @Sendable () -> Void) {
        self.ring = ring
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines on the monotonic clock: a change of the wall clock moves no alarm.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(lock)
        condition.deallocate()
        lock.deallocate()
    }

    /// Rings `seconds` from now (at once when not positive), instead of any deadline set before.
    func ring(in seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds.rounded(.down)
        var at = timespec(tv_sec: now.tv_sec + Int(max(0, min(whole, 1e9))),
                          tv_nsec: now.tv_nsec + (seconds > 0 ? Int((seconds - whole) * 1e9) : 0))
        if at.tv_nsec >= 1_000_000_000 {
            at.tv_sec += 1
            at.tv_nsec -= 1_000_000_000
        }
        locked { deadline = at }
        // Signalled after the lock is let go: woken holding it, the thread would wait for it again.
        pthread_cond_signal(condition)
    }

    /// No ring until the next `ring(in:)`.
    func cancel() {
        locked { deadline = nil }
    }

    /// Ends the thread (it holds the alarm until then).
    func stop() {
        locked { stopped = true }
        pthread_cond_signal(condition)
    }

    private func locked(_ body: () -> Void) {
        pthread_mutex_lock(lock)
        body()
        pthread_mutex_unlock(lock)
    }

    private func run() {
        pthread_mutex_lock(lock)
        while !stopped {
            guard var due = deadline else {
                pthread_cond_wait(condition, lock)
                continue
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            if now.tv_sec > due.tv_sec || (now.tv_sec == due.tv_sec && now.tv_nsec >= due.tv_nsec) {
                deadline = nil
                pthread_mutex_unlock(lock)
                ring()
                pthread_mutex_lock(lock)
            } else {
                pthread_cond_timedwait(condition, lock, &due)
            }
        }
        pthread_mutex_unlock(lock)
    }
}
