// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import Synchronization

/// One deadline for a piece of work, kept whatever the work does: at `deadline` the caller gets
/// `timedOut` and the work is cancelled, even if it does not notice the cancellation at once (a
/// name lookup on the thread pool, a body that drips a byte every few seconds). So a request costs
/// its caller (an emote slot, a feed's turn) at most that long.
package enum Deadline {
    /// `operation`'s result, or `timedOut` at `deadline`, or `cancelled` when the calling task is.
    /// A result that arrives after the caller was answered is given to `discard` (to release it).
    package static func run<T: Sendable>(
        until deadline: ContinuousClock.Instant, timedOut: WebFailure, cancelled: WebFailure,
        discard: @escaping @Sendable (T) -> Void = { _ in },
        _ operation: @escaping @Sendable () async throws(WebFailure) -> T
    ) async throws(WebFailure) -> T {
        let race = Race<T>(discard: discard)
        let worker = Task {
            do throws(WebFailure) {
                race.finish(.success(try await operation()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            race.finish(.failure(timedOut))
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { race.wait($0) }
        } onCancel: {
            race.finish(.failure(cancelled))
        }
        worker.cancel()
        timer.cancel()
        return try result.get()
    }

    /// The first of the work, the timer and the caller's cancellation to finish wins; the rest are ignored.
    private final class Race<T: Sendable>: Sendable {
        private enum State {
            case running(waiter: CheckedContinuation<Result<T, WebFailure>, Never>?)
            case finished(Result<T, WebFailure>)
        }

        private let state = Mutex(State.running(waiter: nil))
        private let discard: @Sendable (T) -> Void

        init(discard: @escaping @Sendable (T) -> Void) {
            self.discard = discard
        }

        func finish(_ result: Result<T, WebFailure>) {
            let (waiter, late): (CheckedContinuation<Result<T, WebFailure>, Never>?, Bool) = state.withLock { state in
                switch state {
                case .running(let waiter):
                    state = .finished(result)
                    return (waiter, false)
                case .finished:
                    return (nil, true)
                }
            }
            if late {
                if case .success(let value) = result { discard(value) }
                return
            }
            waiter?.resume(returning: result)
        }

        func wait(_ waiter: CheckedContinuation<Result<T, WebFailure>, Never>) {
            let ready: Result<T, WebFailure>? = state.withLock { state in
                switch state {
                case .running:
                    state = .running(waiter: waiter)
                    return nil
                case .finished(let result):
                    return result
                }
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }
}
