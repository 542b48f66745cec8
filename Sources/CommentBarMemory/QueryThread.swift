// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Synchronization

/// The memory's thread for the control page's reads (search, viewers, recent rows): SQLite work
/// that may take a while runs here, one job at a time, and its caller (a task of the control
/// server) is resumed with the answer. Never the cooperative pool's threads, which the frame loop
/// and the heartbeat share: a slow search can delay the next search, never a frame.
final class QueryThread: Sendable {
    private let queue = DispatchQueue(label: "commentbar.chat-log.queries", qos: .utility)
    private let waiting = Atomic<Int>(0)

    /// Jobs queued or running at most; past it a call is refused at once (a page that fires a
    /// search per key press must not build a queue of seconds).
    static let maxWaiting = 8

    /// Runs `job` on the thread and returns its result; refused when `maxWaiting` jobs wait.
    func run<T: Sendable>(_ job: @escaping @Sendable () -> Result<T, ChatMemoryError>) async -> Result<T, ChatMemoryError> {
        guard waiting.add(1, ordering: .relaxed).newValue <= Self.maxWaiting else {
            waiting.subtract(1, ordering: .relaxed)
            return .failure(ChatMemoryError("the chat log is busy with other searches; try again"))
        }
        return await withCheckedContinuation { continuation in
            queue.async { [self] in
                let result = job()
                waiting.subtract(1, ordering: .relaxed)
                continuation.resume(returning: result)
            }
        }
    }

    /// Runs `job` on the thread after what is queued; does not wait for it.
    func later(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }
}
