// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The bytes of remote (`https://`) images, filled off the render path by whoever fetches
/// them (`serve`'s fetcher, `render` before it draws). The renderer only looks here: it never
/// waits on the network. A few entries at most, the least recently added first out, so a
/// feed naming image after image cannot grow the memory.
///
/// With `decoding` (serve), the bar's pictures (these and the streamer's own files) are decoded
/// off the frame loop too: the bar draws the picture it had, or none, until the new one is ready.
public final class RemoteImageStore: Sendable {
    /// Where the bar's pictures are decoded, and who is told: `decoded` when one is ready (the
    /// frame loop wakes to draw it), `failed` when a remote one cannot be shown (for the log).
    public struct Decoding: Sendable {
        public var decoders: PictureDecoders
        public var decoded: @Sendable () -> Void
        public var failed: @Sendable (_ url: String, _ reason: String) -> Void

        public init(decoders: PictureDecoders = .bar, decoded: @escaping @Sendable () -> Void,
                    failed: @escaping @Sendable (_ url: String, _ reason: String) -> Void) {
            self.decoders = decoders
            self.decoded = decoded
            self.failed = failed
        }
    }

    /// Nil: pictures are decoded where the renderer draws them (`render`, which draws once; tests).
    public let decoding: Decoding?

    public enum State: Sendable, Equatable {
        case loading
        case loaded([UInt8])
        case failed(String)
    }

    /// Avatar and background, with room for the previous ones.
    public static let capacity = 4

    private struct Entries {
        var states: [String: State] = [:]
        var order: [String] = []
        var revision: UInt64 = 0
    }

    private let entries = Mutex(Entries())

    public init(decoding: Decoding? = nil) {
        self.decoding = decoding
    }

    public func state(of url: String) -> State? {
        entries.withLock { $0.states[url] }
    }

    /// Bumped on every change: the stable layer is drawn again when it moves.
    public var revision: UInt64 {
        entries.withLock { $0.revision }
    }

    /// Marks `url` as loading and returns true, unless it is already known.
    public func begin(_ url: String) -> Bool {
        entries.withLock { entries in
            guard entries.states[url] == nil else { return false }
            Self.insert(url, .loading, into: &entries)
            return true
        }
    }

    public func finish(_ url: String, _ state: State) {
        entries.withLock { entries in
            Self.insert(url, state, into: &entries)
        }
    }

    /// A picture was decoded off the frame loop (or failed): the stable layer is drawn again.
    func pictureDecoded() {
        entries.withLock { $0.revision &+= 1 }
        decoding?.decoded()
    }

    /// Forgets `url` (a fetch that was given up).
    public func forget(_ url: String) {
        entries.withLock { entries in
            guard entries.states.removeValue(forKey: url) != nil else { return }
            entries.order.removeAll { $0 == url }
            entries.revision &+= 1
        }
    }

    private static func insert(_ url: String, _ state: State, into entries: inout Entries) {
        if entries.states.updateValue(state, forKey: url) == nil {
            entries.order.append(url)
            while entries.order.count > capacity {
                entries.states[entries.order.removeFirst()] = nil
            }
        }
        entries.revision &+= 1
    }
}
