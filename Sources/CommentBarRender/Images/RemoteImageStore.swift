// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The bytes of remote (`https://`) images, filled off the render path by whoever fetches
/// them (`serve`'s fetcher, `render` before it draws). The renderer only looks here: it never
/// waits on the network. A few entries at most, the least recently added first out, so a
/// feed naming image after image cannot grow the memory.
public final class RemoteImageStore: Sendable {
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

    public init() {}

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
