// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The frame loop's own thread: the loop's jobs run here (a task executor the loop prefers), and
/// its alarms (`FlowAlarm`) ring here, each at one monotonic deadline, waiting on a condition
/// variable. A sleeping task per alarm cost a task, a dispatch timer, libdispatch's manager thread
/// and a pool thread for the task, then another for the loop: at a ticker's 30 frames a second
/// that was most of the renderer's CPU (docs/benchmarks.md). Here an alarm that rings wakes the
/// loop on this very thread: a frame costs this thread's one wake-up.
final class FrameThread: TaskExecutor, @unchecked Sendable {
    // Everything below is read and written with `lock` held.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var alarms: [Alarm] = []
    private var stopped = false
    private var running = false

    private struct Alarm {
        var deadline: timespec?
        let ring: @Sendable () -> Void
    }

    /// Nil when no thread could be started (the loop then runs on the pool, its alarms as tasks).
    static func start() -> FrameThread? {
        let thread = FrameThread()
        return POSIXIO.startThread { thread.run() } ? thread : nil
    }

    private init() {
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

    // MARK: the executor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = locked { () -> Bool in
            guard running || !stopped else { return false }
            jobs.append(job)
            return true
        }
        if accepted {
            pthread_cond_signal(condition)
        } else {
            // The thread has ended: what still runs for the loop goes to the pool.
            globalConcurrentExecutor.enqueue(job)
        }
    }

    // MARK: the alarms

    /// A new alarm; `ring` runs on this thread and must not block (it wakes the frame loop).
    func addAlarm(ring: @escaping @Sendable () -> Void) -> Int {
        locked {
            alarms.append(Alarm(deadline: nil, ring: ring))
            return alarms.count - 1
        }
    }

    /// Rings `alarm` `seconds` from now (at once when not positive), instead of its deadline before.
    func ring(_ alarm: Int, in seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds > 0 ? min(seconds.rounded(.down), 1e9) : 0
        var at = timespec(tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + (seconds > 0 ? Int((seconds - whole) * 1e9) : 0))
        if at.tv_nsec >= 1_000_000_000 {
            at.tv_sec += 1
            at.tv_nsec -= 1_000_000_000
        }
        locked { if alarms.indices.contains(alarm) { alarms[alarm].deadline = at } }
        // Signalled after the lock is let go: woken holding it, the thread would wait for it again.
        pthread_cond_signal(condition)
    }

    /// No ring of `alarm` until it is set again.
    func cancel(_ alarm: Int) {
        locked { if alarms.indices.contains(alarm) { alarms[alarm].deadline = nil } }
    }

    /// Ends the thread once the jobs queued have run; jobs that come later go to the pool.
    func stop() {
        locked { stopped = true }
        pthread_cond_signal(condition)
    }

    // MARK: the thread

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    private static func before(_ a: timespec, _ b: timespec) -> Bool {
        a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec)
    }

    private func run() {
        pthread_mutex_lock(lock)
        running = true
        while true {
            if !jobs.isEmpty {
                let batch = jobs
                jobs.removeAll(keepingCapacity: true)
                pthread_mutex_unlock(lock)
                for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
                pthread_mutex_lock(lock)
                continue
            }
            if stopped { break }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            var rings: [@Sendable () -> Void] = []
            var earliest: timespec?
            for index in alarms.indices {
                guard let deadline = alarms[index].deadline else { continue }
                if Self.before(deadline, now) {
                    alarms[index].deadline = nil
                    rings.append(alarms[index].ring)
                } else if earliest.map({ Self.before(deadline, $0) }) ?? true {
                    earliest = deadline
                }
            }
            if !rings.isEmpty {
                pthread_mutex_unlock(lock)
                for ring in rings { ring() }
                pthread_mutex_lock(lock)
            } else if var earliest {
                pthread_cond_timedwait(condition, lock, &earliest)
            } else {
                pthread_cond_wait(condition, lock)
            }
        }
        running = false
        pthread_mutex_unlock(lock)
    }
}
