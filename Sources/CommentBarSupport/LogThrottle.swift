// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// "Log at most once per interval": says whether a line may be written now, and how many were
/// held back since the last one, so the line can say so. Optionally per key (a distinct reason,
/// a URL): each key has its own interval, and at most `maxKeys` are remembered (the oldest go).
/// The one rate limit for log lines of the renderer; thread-safe.
public final class LogThrottle: Sendable {
    public let interval: Duration
    private let maxKeys: Int
    private let state: Mutex<[String: Entry]>

    private struct Entry {
        var last: ContinuousClock.Instant
        var heldBack: Int
    }

    public init(interval: Duration, maxKeys: Int = 256) {
        self.interval = interval
        self.maxKeys = max(1, maxKeys)
        state = Mutex([:])
    }

    /// nil: hold this line back (counted). Else the line may be written, and the number of
    /// lines under `key` held back since the last one written (0 for the first).
    public func admit(_ key: String = "", now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { entries in
            if var entry = entries[key] {
                guard now - entry.last >= interval else {
                    entry.heldBack += 1
                    entries[key] = entry
                    return nil
                }
                entries[key] = Entry(last: now, heldBack: 0)
                return entry.heldBack
            }
            if entries.count >= maxKeys, let oldest = entries.min(by: { $0.value.last < $1.value.last })?.key {
                entries[oldest] = nil
            }
            entries[key] = Entry(last: now, heldBack: 0)
            return 0
        }
    }

    /// Forgets `key`: its next line is written at once (the problem went away and came back).
    public func reset(_ key: String = "") {
        state.withLock { $0[key] = nil }
    }
}
