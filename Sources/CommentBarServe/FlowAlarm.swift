// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Synchronization

/// Wakes the frame loop when the next waiting comment (`ChatFlow`) is due, or the picture's next
/// change by itself (`NextRedraw`), and only then: one sleeping task for the earliest time
/// asked, replaced when an earlier one is asked. Times are seconds since the alarm was made
/// (the flow's clock).
final class FlowAlarm: Sendable {
    private let epoch = ContinuousClock.now
    private let pending = Mutex<(due: Double, task: Task<Void, Never>)?>(nil)
    private let ring: @Sendable () -> Void

    init(ring: @escaping @Sendable () -> Void) {
        self.ring = ring
    }

    /// The flow's clock: seconds since the alarm was made.
    var now: Double {
        (ContinuousClock.now - epoch).inSeconds
    }

    /// Rings at `due` (nil: nothing waits); an alarm already set for then or earlier stays.
    /// Whoever the ring wakes releases what is due and asks again for the next.
    func set(_ due: Double?) {
        guard let due, due.isFinite else { return }
        let epoch = epoch
        pending.withLock { pending in
            if let pending, pending.due <= due { return }
            pending?.task.cancel()
            pending = (due, Task { [weak self] in
                do { try await ContinuousClock().sleep(until: epoch + .nanoseconds(Int64(due * 1e9))) } catch { return }
                guard let self else { return }
                self.pending.withLock { pending in if pending?.due == due { pending = nil } }
                self.ring()
            })
        }
    }

    func cancel() {
        pending.withLock { pending in
            pending?.task.cancel()
            pending = nil
        }
    }
}
