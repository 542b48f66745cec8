// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Wall-clock time as the log keeps it: unix seconds.
package enum MemoryClock {
    package static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
