// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// When the bar's picture next changes by itself, with no event to say so: the clock's next
/// second, the end of a timed pin, and whatever the renderer says of its own picture
/// (`BarRenderer.nextChange(after:)`: a row entering or fading, the ticker, an animated emote's
/// step, a row's fade to come), which only it knows. The frame loop is woken then and by events
/// only; with nothing due (no clock, no pin, nothing moving) it sleeps until an event comes.
/// Times are unix seconds.
enum NextRedraw {
    /// Past the second: a wake-up a hair early would find the clock unchanged.
    static let margin = 0.001
    /// How late the clock's own frame may come after its second (the old 100 ms ticker's worst
    /// case): a comment's frame in between shows the new second, and the clock then needs no
    /// frame of its own (at 10 comments/s nearly every second's).
    static let clockSlack = 0.1

    /// `rendererDue`: the renderer's own next change (`BarRenderer.nextChange(after: now)`).
    static func after(_ now: Double, state: BarState, obs: OBSLiveState, settings: BarSettings,
                      rendererDue: Double? = nil) -> Double? {
        var due: Double?
        func consider(_ time: Double) { due = min(due ?? time, time) }
        let reading = BroadcastReading.resolve(settings.clockSource, feedStart: state.streamStart,
                                               feedStatus: state.status, obs: obs)
        if settings.showClock, !reading.clockHidden, let start = reading.start, start.isFinite {
            // The clock shows whole seconds since `start` (`BarState.elapsedText`).
            consider(start + max((now - start).rounded(.down), 0) + 1 + clockSlack)
        }
        if let until = state.pinned?.until, until.isFinite { consider(until + margin) }
        if let rendererDue, rendererDue.isFinite { consider(max(rendererDue, now)) }
        return due
    }
}
