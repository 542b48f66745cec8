// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames

/// What the session's tasks share (the stdin router, the feeds, the frame loop), under one lock
/// (`ServeSession.shared`), held only to read or change these values, never while drawing.
struct SessionState {
    var state = BarState()
    /// Comments waiting to be shown (paced bursts, the moderation delay).
    var flow = ChatFlow()
    var settings = BarSettings()
    var active = true
    /// What OBS says (streaming, recording, mic); kept when the feed changes.
    var obs = OBSLiveState()
    /// Bumped when the settings change, so the frame loop picks them up.
    var settingsRevision = 0
    /// Bumped when the feed is replaced: events from an older feed still in flight are dropped.
    var feedGeneration = 0
    /// Since when the frame loop has been working on a wake-up (nil: it waits for the next):
    /// the heartbeat stops if one takes `stallLimit`. An idle loop is not a stuck one.
    var frameLoopBusySince: ContinuousClock.Instant?
    /// Row changes not yet on screen, when `COMMENTBAR_LATENCY_TRACE` is set (nil: off).
    var latency: RowLatencyTrace?
    /// When the rows last changed (CLOCK_MONOTONIC ns): the frame that first shows the change
    /// carries it to the pool, the latency probe's first leg (docs/pool-abi.md).
    var rowsChangedAt: UInt64 = 0

    /// Which comments the audience's boards count now (votes, join words, the entry word): kept
    /// off the rows while `hide_audience_words` is on, and still heard by the parts.
    var counted: (any CountedComments)?

    /// An event the flow released, as the bar applied it: what the parts hear of it.
    typealias Heard = (event: FeedEvent, shown: ChatLine?, origin: BarState.Origin)

    /// Applies what the flow released at `now`; returns what the parts hear of it.
    mutating func apply(_ released: [ChatFlow.Release], now: Double) -> [Heard] {
        let revision = state.linesRevision
        let heard = released.map { release -> Heard in
            if settings.hideAudienceWords, case .comment(let line) = release.event, counted?.counts(line) == true {
                return (RowMapping.rowEvent(release.event, release.origin), nil, release.origin)
            }
            let (event, shown) = RowMapping.apply(release.event, from: release.origin, to: &state)
            return (event, shown, release.origin)
        }
        if state.linesRevision != revision {
            rowsChangedAt = MonotonicTime.nanoseconds()
            latency?.changed(to: state.linesRevision, at: now)
        }
        return heard
    }
}

/// Comments a part counts rather than shows (the audience's votes and joins, issue 48). Asked
/// under the session's lock: it takes only its own locks, which never wait for the session's.
protocol CountedComments: Sendable {
    func counts(_ line: ChatLine) -> Bool
}
