// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Unix seconds as the CLI prints them: ISO 8601 in UTC for machines, local time for people.
public enum Timestamps {
    /// `2026-11-25T13:00:01.234Z`
    public static func iso(_ time: Double) -> String {
        let (parts, milliseconds) = split(time, local: false)
        return "\(date(parts))T\(clock(parts)).\(pad(milliseconds, 3))Z"
    }

    /// `2026-11-25 22:00:01` in the machine's time zone.
    public static func local(_ time: Double) -> String {
        let (parts, _) = split(time, local: true)
        return "\(date(parts)) \(clock(parts))"
    }

    private static func split(_ time: Double, local: Bool) -> (tm, Int) {
        let clamped = time.isFinite ? min(max(time, 0), 32_503_680_000) : 0
        var seconds = time_t(clamped.rounded(.down))
        var parts = tm()
        if local { localtime_r(&seconds, &parts) } else { gmtime_r(&seconds, &parts) }
        return (parts, min(999, Int(((clamped - clamped.rounded(.down)) * 1000).rounded(.down))))
    }

    private static func date(_ parts: tm) -> String {
        "\(parts.tm_year + 1900)-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
    }

    private static func clock(_ parts: tm) -> String {
        "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
    }

    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
