// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The wall clock, read in one place: unix seconds, the time rows, pins, events and caches are
/// stamped with (elapsed time is measured on `ContinuousClock`, which never jumps).
public enum WallClock {
    /// Unix seconds now.
    public static func now() -> Double { Date().timeIntervalSince1970 }
}

extension Duration {
    /// The duration in seconds.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// In whole nanoseconds, never below 0 and never past `Int64.max` (NIO's `TimeAmount`).
    public var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return Int64.max }
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// In whole milliseconds, never below 0 and never past `Int.max`.
    public var clampedMilliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64(Int.max / 1000) - 1 else { return Int.max }
        return Int(max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
