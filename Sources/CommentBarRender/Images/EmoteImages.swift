import Synchronization

/// The emotes' pictures by URL, filled off the render path (`serve`'s and `render`'s
/// fetchers) and read by the renderer, which never waits on the network. Bounded by
/// the bytes of decoded pixels: the least recently used go first (they are fetched
/// again if a row shows them again).
public final class EmoteImages: Sendable {
    public enum State: Sendable {
        case loading
        case ready(EmoteArt)
        /// The emote's text is shown instead.
        case failed
    }

    /// Decoded pixels kept at most (issue 12: a 32 MiB memory cache).
    public static let maxBytes = 32 << 20
    /// The height pictures are decoded at: crisp up to about 48 px text, scaled down below.
    public static let decodeHeight = 64

    private struct Entry {
        var state: State
        var bytes: Int
        var lastUse: UInt64
    }

    private struct Entries {
        var states: [String: Entry] = [:]
        var totalBytes = 0
        var useCounter: UInt64 = 0
        var revision: UInt64 = 0
    }

    private let entries = Mutex(Entries())

    public init() {}

    public func state(of url: String) -> State? {
        entries.withLock { entries in
            entries.useCounter &+= 1
            entries.states[url]?.lastUse = entries.useCounter
            return entries.states[url]?.state
        }
    }

    /// Bumped whenever a picture arrives or fails: rows waiting for it are laid out again.
    public var revision: UInt64 { entries.withLock { $0.revision } }

    /// Total decoded bytes held (for tests and benchmarks).
    public var totalBytes: Int { entries.withLock { $0.totalBytes } }

    /// Marks `url` as loading and returns true, unless it is already known.
    public func begin(_ url: String) -> Bool {
        entries.withLock { entries in
            guard entries.states[url] == nil else { return false }
            entries.useCounter &+= 1
            entries.states[url] = Entry(state: .loading, bytes: 0, lastUse: entries.useCounter)
            return true
        }
    }

    public func finish(_ url: String, _ state: State) {
        entries.withLock { entries in
            let bytes: Int
            if case .ready(let art) = state { bytes = art.bytes } else { bytes = 0 }
            entries.totalBytes -= entries.states[url]?.bytes ?? 0
            entries.useCounter &+= 1
            entries.states[url] = Entry(state: state, bytes: bytes, lastUse: entries.useCounter)
            entries.totalBytes += bytes
            while entries.totalBytes > Self.maxBytes,
                  let oldest = entries.states.filter({ $0.key != url && $0.value.bytes > 0 })
                      .min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.totalBytes -= oldest.value.bytes
                entries.states[oldest.key] = nil
            }
            entries.revision &+= 1
        }
    }
}
