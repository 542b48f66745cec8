// SPDX-License-Identifier: GPL-2.0-or-later
/// One stream's pacing: comments that arrive together (one poll's answer, one segment read
/// at once) but carry the times they were sent are spread over the time they cover, as they
/// were said. The first of a burst shows at once, the others after it by their own times,
/// squeezed (proportionally) into the time since the stream's previous burst arrived, so a
/// burst is shown by the time the next one comes; a new burst ends the previous one's wait.
struct BurstPacer: Sendable, Equatable {
    /// Comments arriving within this many seconds of a burst's first are part of it.
    static let together = 0.25
    /// A burst is never spread over more than this (YouTube's longest poll wait).
    static let maxSpread = 8.0

    /// Counts bursts, so waiting comments know which one they belong to.
    private(set) var burst: UInt64 = 0
    private var arrival: Double?
    private var previousArrival: Double?
    /// When the stream went live, before any burst: the first burst's interval starts there.
    private var liveSince: Double?
    private var firstSent = 0.0
    private var newestSent = 0.0

    /// Notes a timed comment arriving at `now`; true when it starts a new burst.
    mutating func arrive(sentAt: Double, now: Double) -> Bool {
        if let arrival, now - arrival <= Self.together, now >= arrival {
            firstSent = min(firstSent, sentAt)
            newestSent = max(newestSent, sentAt)
            return false
        }
        previousArrival = arrival ?? liveSince
        arrival = now
        firstSent = sentAt
        newestSent = sentAt
        burst &+= 1
        return true
    }

    /// The stream went live at `now` (its first answer came): the next burst fills the time since.
    mutating func noteLive(now: Double) {
        if arrival == nil { liveSince = now }
    }

    /// When a comment of the current burst, sent at `sentAt`, is due. The first burst a
    /// stream sends, before it said it is live, has no interval to fill: it shows at once.
    func due(sentAt: Double) -> Double {
        guard let arrival else { return 0 }
        guard let previousArrival else { return arrival }
        let spread = min(Self.maxSpread, max(arrival - previousArrival, 0))
        let covered = newestSent - firstSent
        guard covered > 0, spread > 0 else { return arrival }
        let scale = min(1, spread / covered)
        return arrival + min(max(sentAt - firstSent, 0) * scale, spread)
    }
}
