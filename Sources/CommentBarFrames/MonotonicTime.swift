// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// CLOCK_MONOTONIC, the clock the pool's stamps use (docs/pool-abi.md) and the one OBS, the shim
/// and a benchmark's `time.monotonic_ns()` read alike. Swift's `ContinuousClock` is not it on
/// Linux (it counts suspended time: CLOCK_BOOTTIME).
public enum MonotonicTime {
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
