// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Synchronization

/// Wakes the frame loop when the next waiting comment (`ChatFlow`) is due, or the picture's next
/// change by itself (`NextRedraw`), and only then: one deadline, the earliest asked, replaced when
/// an earlier one is asked; rung on the frame loop's own thread (`FrameThread`). Times are
/// seconds since the alarm was made (the flow's clock).
final class FlowAlarm: Sendable {
    private let epoch = ContinuousClock.now
    private let pending: Pending
    private let thread: (thread: FrameThread, alarm: Int)?

    /// The deadline set (nil: none), and what its ring does; the sleeping task only where there
    /// is no frame thread. Apart from the alarm, so that the thread's hold on it holds no thread.
    private final class Pending: Sendable {
        let due = Mutex<(due: Double, task: Task<Void, Never>?)?>(nil)
        let ring: @Sendable () -> Void

        init(ring: @escaping @Sendable () -> Void) {
            self.ring = ring
        }

        /// The deadline came: it is cleared, then rung.
        func rang() {
            guard due.withLock({ pending in defer { pending = nil }; return pending != nil }) else { return }
            ring()
        }
    }

    init(on thread: FrameThread?, ring: @escaping @Sendable () -> Void) {
        let pending = Pending(ring: ring)
        self.pending = pending
        self.thread = thread.map { ($0, $0.addAlarm { pending.rang() }) }
    }

    /// The flow's clock: seconds since the alarm was made.
    var now: Double {
        (ContinuousClock.now - epoch).inSeconds
    }

    /// Rings at `due` (nil: nothing waits); an alarm already set for then or earlier stays.
    /// Whoever the ring wakes releases what is due and asks again for the next.
    func set(_ due: Double?) {
        guard let due, due.isFinite else { return }
        let (epoch, thread, pending) = (epoch, thread, pending)
        let now = now
        pending.due.withLock { set in
            if let set, set.due <= due { return }
            set?.task?.cancel()
            if let thread {
                set = (due, nil)
                thread.thread.ring(thread.alarm, in: due - now)
                return
            }
            set = (due, Task {
                do { try await ContinuousClock().sleep(until: epoch + .nanoseconds(Int64(due * 1e9))) } catch { return }
                pending.rang()
            })
        }
    }

    func cancel() {
        pending.due.withLock { set in
            set?.task?.cancel()
            set = nil
        }
        if let thread { thread.thread.cancel(thread.alarm) }
    }
}
