// SPDX-License-Identifier: GPL-2.0-or-later
/// At most `perSecond` actions in any one second (`actions_per_second`): a burst of first-time
/// viewers or gifts sends that many, and the rest are counted, not sent (nor sent late).
struct ActionRate: Sendable {
    var perSecond: Int
    /// When each admitted action of the last second was admitted, oldest first.
    private var recent: [ContinuousClock.Instant] = []
    /// Refused since the last time the count was taken.
    private(set) var refused = 0

    init(perSecond: Int) {
        self.perSecond = max(1, perSecond)
    }

    mutating func admit(now: ContinuousClock.Instant = .now) -> Bool {
        recent.removeAll { now - $0 >= .seconds(1) }
        guard recent.count < perSecond else {
            refused += 1
            return false
        }
        recent.append(now)
        return true
    }

    /// How many were refused since the last call, and starts counting again.
    mutating func takeRefused() -> Int {
        defer { refused = 0 }
        return refused
    }
}
