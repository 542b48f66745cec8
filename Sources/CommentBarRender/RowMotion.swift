// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// How a row is drawn at a moment: its opacity and how far left of its place it is.
struct RowVisual: Equatable {
    var alpha: Double
    var dx: Int

    static let rest = RowVisual(alpha: 1, dx: 0)
}

/// Rows coming in (`enter` slide or fade) and fading out (`fade_after`), issue 38: when the bar
/// first saw each row, and what that makes of it at a moment. Made only when one of them is on,
/// so the default look pays nothing. A row moves only while it enters or fades: frames are made
/// then, and never while every row is at rest.
final class RowMotion {
    /// How long a row takes to come in, and to fade out.
    static let enterDuration = 0.25
    static let fadeDuration = 0.5

    let enter: BarSettings.EnterAnimation
    /// Seconds on screen before a row fades (0: never).
    let fadeAfter: Double
    /// When the bar first saw each row (unix seconds).
    private var firstSeen: [String: Double] = [:]
    private var started = false

    init?(settings: BarSettings) {
        guard settings.layout != .ticker, settings.enter != .instant || settings.fadeAfter > 0 else { return nil }
        enter = settings.enter
        fadeAfter = Double(settings.fadeAfter)
    }

    /// Notes when each row of `lines` was first seen (now, for new ones) and forgets rows gone
    /// from them. The rows there at the first call were on the bar already: they do not enter,
    /// and are as old as their arrival on the stream's clock says (`ChatLine.arrivedAt`), so a
    /// replay rendered at a moment shows faded what a live bar would have faded by then.
    func note(_ lines: [ChatLine], now: Double) {
        let first = !started
        started = true
        let atRest = now - Self.enterDuration
        var kept: [String: Double] = [:]
        kept.reserveCapacity(lines.count)
        for line in lines {
            kept[line.id] = firstSeen[line.id] ?? (first ? min(atRest, line.arrivedAt ?? atRest) : now)
        }
        firstSeen = kept
    }

    /// How the row `id` (its image `width` wide) is drawn at `now`.
    func visual(of id: String, width: Int, now: Double) -> RowVisual {
        guard let seen = firstSeen[id] else { return .rest }
        let age = now - seen
        var visual = RowVisual.rest
        if enter != .instant, age < Self.enterDuration {
            let progress = max(0, age / Self.enterDuration)
            let eased = 1 - (1 - progress) * (1 - progress) * (1 - progress)
            visual.alpha = eased
            if enter == .slide {
                // In from the left, by up to its own width (a long row comes no further than 160 px).
                visual.dx = -Int(((1 - eased) * Double(min(width, 160))).rounded())
            }
        }
        if fadeAfter > 0, age > fadeAfter {
            visual.alpha *= max(0, 1 - (age - fadeAfter) / Self.fadeDuration)
        }
        return visual
    }

    /// Whether the row `id` has faded out completely at `now` (no longer placed).
    func isGone(_ id: String, now: Double) -> Bool {
        guard fadeAfter > 0, let seen = firstSeen[id] else { return false }
        return now - seen >= fadeAfter + Self.fadeDuration
    }

    /// Whether a row of `ids` enters or fades at `now`.
    func moves(_ ids: [String], now: Double) -> Bool {
        ids.contains { id in
            guard let seen = firstSeen[id] else { return false }
            let age = now - seen
            return (enter != .instant && age < Self.enterDuration)
                || (fadeAfter > 0 && age > fadeAfter && age < fadeAfter + Self.fadeDuration)
        }
    }

    /// When the rows `ids` next look different after `now`: `step` (the next frame's time) while
    /// one moves, else when the first of them starts to fade; nil when none ever will.
    func nextChange(after now: Double, ids: [String], step: Double) -> Double? {
        if moves(ids, now: now) { return step }
        guard fadeAfter > 0 else { return nil }
        return ids.compactMap { firstSeen[$0].map { $0 + fadeAfter } }.filter { $0 > now }.min()
    }
}
