// SPDX-License-Identifier: GPL-2.0-or-later
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
    /// URLs known at most (failed ones hold no pixels, but a feed naming endless distinct
    /// pictures must not grow the table): the least recently used finished ones go first.
    public static let maxEntries = 4096
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

    /// Forgets a picture that was never fetched (given up before its turn): a row asking again fetches it.
    public func forget(_ url: String) {
        entries.withLock { entries in
            guard let entry = entries.states.removeValue(forKey: url) else { return }
            entries.totalBytes -= entry.bytes
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
            while entries.totalBytes > Self.maxBytes || entries.states.count > Self.maxEntries,
                  let oldest = entries.states.filter({ entry in
                      guard entry.key != url else { return false }
                      if case .loading = entry.value.state { return false }
                      return entries.totalBytes > Self.maxBytes ? entry.value.bytes > 0 : true
                  }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.totalBytes -= oldest.value.bytes
                entries.states[oldest.key] = nil
            }
            entries.revision &+= 1
        }
    }
}
