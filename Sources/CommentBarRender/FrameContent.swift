// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What one frame shows, as far as telling whether the next frame differs from it.
struct FrameContent {
    /// What the stable layer shows.
    var stable: StableInputs
    /// The rows' revision (`BarState.linesRevision`): the same number, the same rows.
    var linesRevision: UInt64
    /// The clock as drawn ("" when it is hidden).
    var clockText: String
    /// The mic level meter's step; nil when the meter is off.
    var meterLevel: Int?
    /// The pinned comment in its strip at the top (nil: none, or its time is up).
    var pinned: ChatLine?
    /// The audience taking part (issue 48): its strip (empty: none).
    var audience = AudienceView()
    /// The strip's own words, in OBS's language.
    var audienceWords = AudienceWords.english
}

/// What differs between the frame published last and the next one. With nothing
/// changed (and no row waiting for a picture or an animation step) no frame is made.
struct FrameChanges {
    /// The stable layer must be drawn again.
    let stable: Bool
    /// The comments changed: rows are placed again (those seen before keep their images).
    let lines: Bool
    let clock: Bool
    let meter: Bool
    /// The pinned comment came, went or changed: the rows move, the frame is composed.
    let pin: Bool
    /// What the audience's strip shows changed: it is laid out again, the frame is composed.
    let audience: Bool

    var any: Bool { stable || lines || clock || meter || pin || audience }

    /// `last`: the frame published last (nil: none, everything changed);
    /// `stableLayer`: what the cached stable layer shows.
    init(from last: FrameContent?, to next: FrameContent, stableLayer: StableInputs?) {
        stable = next.stable != stableLayer
        lines = last.map { $0.linesRevision != next.linesRevision } ?? true
        clock = last.map { $0.clockText != next.clockText } ?? true
        meter = last.map { $0.meterLevel != next.meterLevel } ?? true
        pin = last.map { $0.pinned != next.pinned } ?? true
        audience = last.map { $0.audience != next.audience || $0.audienceWords != next.audienceWords } ?? true
    }
}
