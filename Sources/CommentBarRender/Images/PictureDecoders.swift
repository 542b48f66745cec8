// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Synchronization

/// A few threads of their own for decoding pictures, never the frame loop nor the tasks' shared
/// threads (which the heartbeat needs). Each decode has its own deadline (`ImageLoader`'s budget,
/// checked between slices whose cost is bounded), and a job goes to the thread with the fewest
/// waiting: one slow picture holds one thread for its budget at most, never every picture behind
/// it. Emotes and the bar's own pictures (avatar, background) have pools of their own, so a chat
/// full of hostile emotes cannot keep the avatar from showing.
public final class PictureDecoders: Sendable {
    /// The emotes' pictures.
    public static let emotes = PictureDecoders(label: "commentbar.emote-decoder", threads: 3)
    /// The avatar and its background.
    public static let bar = PictureDecoders(label: "commentbar.picture-decoder", threads: 1)

    private let queues: [DispatchQueue]
    private let waiting: Mutex<[Int]>

    public init(label: String, threads: Int) {
        let count = max(1, threads)
        queues = (0..<count).map { DispatchQueue(label: "\(label).\($0)", qos: .utility) }
        waiting = Mutex(Array(repeating: 0, count: count))
    }

    /// Runs `job` on the least busy thread.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        let index = waiting.withLock { waiting in
            let index = waiting.indices.min { waiting[$0] < waiting[$1] } ?? 0
            waiting[index] += 1
            return index
        }
        queues[index].async { [self] in
            job()
            waiting.withLock { $0[index] -= 1 }
        }
    }

    /// `job`'s result, computed on the least busy thread.
    public func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: job()) }
        }
    }
}
