// SPDX-License-Identifier: GPL-2.0-or-later

/// How often the bar's audience strip may change (issue 48): at most once a quarter second. A
/// vote storm (thousands a second) would otherwise lay the strip out and compose a frame for
/// every vote; at this pace the count a viewer reads still moves smoothly. The first change after
/// a quiet moment shows at once. Times are seconds on one clock.
struct StripPace {
    /// Four strips a second at most.
    static let interval = 0.25

    private(set) var lastShown: Double?

    /// When a change noticed at `now` may show.
    func due(at now: Double) -> Double {
        lastShown.map { max(now, $0 + Self.interval) } ?? now
    }

    mutating func shown(at now: Double) {
        lastShown = now
    }
}
