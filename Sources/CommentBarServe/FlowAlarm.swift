// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Synchronization

/// Wakes the frame loop when the next waiting comment (`ChatFlow`) is due, or the picture's next
/// change by itself (`NextRedraw`), and only then: one deadline, the earliest asked, replaced when
/// an earlier one is asked; rung by a thread of its own (`AlarmThread`). Times are seconds since
/// the alarm was made (the flow's clock).
final class FlowAlarm: Sendable {
    private let epoch = ContinuousClock.now
    /// The deadline set (nil: none); the sleeping task only where no thread could be started.
    private let pending = Mutex<(due: Double, task: Task<Void, Never>?)?>(nil)
    private let ring: @Sendable () -> Void
    private let thread = Mutex<AlarmThread?>(nil)

    init(ring: @escaping @Sendable () -> Void) {
        self.ring = ring
        let started = AlarmThread.start { [weak self] in self?.rang() }
        thread.withLock { $0 = started }
    }

    deinit {
        thread.withLock { $0?.stop() }
    }

    /// The flow's clock: seconds since the alarm was made.
    var now: Double {
        (ContinuousClock.now - epoch).inSeconds
    }

    /// Rings at `due` (nil: nothing waits); an alarm already set for then or earlier stays.
    /// Whoever the ring wakes releases what is due and asks again for the next.
    func set(_ due: Double?) {
        guard let due, due.isFinite else { return }
        let alarmThread = thread.withLock { $0 }
        let epoch = epoch
        pending.withLock { pending in
            if let pending, pending.due <= due { return }
            pending?.task?.cancel()
            if let alarmThread {
                pending = (due, nil)
                alarmThread.ring(in: due - now)
                return
            }
            pending = (due, Task { [weak self] in
                do { try await ContinuousClock().sleep(until: epoch + .nanoseconds(Int64(due * 1e9))) } catch { return }
                self?.rang()
            })
        }
    }

    func cancel() {
        pending.withLock { pending in
            pending?.task?.cancel()
            pending = nil
        }
        thread.withLock { $0?.cancel() }
    }

    /// The deadline came (the thread's, or the task's): rings, or, woken before the flow's clock
    /// says so, sets the thread for what is left.
    private func rang() {
        let now = now
        let left = pending.withLock { pending -> Double? in
            guard let set = pending else { return nil }  // cancelled meanwhile
            guard set.due > now else {
                pending = nil
                return 0
            }
            return set.due - now
        }
        guard let left else { return }
        if left > 0, let alarmThread = thread.withLock({ $0 }) {
            alarmThread.ring(in: left)
        } else {
            ring()
        }
    }
}
