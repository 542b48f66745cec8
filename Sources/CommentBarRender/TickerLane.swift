// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore
import CommentBarFrames

/// The ticker's one line (issue 38): comments travel right to left at `speed` pixels a second,
/// one after another, each entering at the lane's right end once the one before has left a gap
/// behind it, so two never overlap; none is skipped while at most `maxWaiting` wait. Each is laid
/// out once, as a one-line row image, and dropped when it has left the lane.
final class TickerLane {
    /// Comments waiting beyond this many drop the oldest waiting first: the ticker catches up.
    static let maxWaiting = 20

    struct Entry {
        let id: String
        let image: LineImage
        /// When the bar saw it (unix seconds).
        let arrived: Double
        /// When its left edge crossed the lane's right end; nil while it waits.
        var entered: Double?
    }

    /// A comment on the lane at a moment: its image's left edge.
    struct Placed: Equatable {
        let id: String
        let x: Int
        let image: LineImage

        static func == (a: Placed, b: Placed) -> Bool { a.id == b.id && a.x == b.x && a.image === b.image }
    }

    let speed: Double
    let gap: Int
    private(set) var entries: [Entry] = []
    /// The rows seen so far (bounded: the bar keeps at most `BarState.retainedLines`).
    private var seen: Set<String> = []
    private var started = false

    init(speed: Int, gap: Int) {
        self.speed = Double(max(speed, 1))
        self.gap = gap
    }

    /// Takes the new rows of `lines` into the queue and drops the rows gone from them (deleted,
    /// cleared). The rows there at the first call are on the lane already, newest at its right end.
    func update(_ lines: [ChatLine], now: Double, laneWidth: Int, image: (ChatLine) -> LineImage) {
        let ids = Set(lines.map(\.id))
        entries.removeAll { !ids.contains($0.id) }
        let new = lines.filter { !seen.contains($0.id) }
        seen = ids
        guard started else {
            started = true
            // Already travelling: the newest just in, older ones before it, as far as the lane shows.
            var right = Double(laneWidth)
            var placed: [Entry] = []
            for line in new.reversed() where right > 0 {
                let row = image(line)
                right -= Double(row.image.width)
                placed.append(Entry(id: line.id, image: row, arrived: now,
                                    entered: now - (Double(laneWidth) - right) / speed))
                right -= Double(gap)
            }
            entries = placed.reversed()
            return
        }
        for line in new { entries.append(Entry(id: line.id, image: image(line), arrived: now, entered: nil)) }
        let waiting = entries.indices.filter { entries[$0].entered == nil }
        if waiting.count > Self.maxWaiting {
            let dropped = Set(waiting.prefix(waiting.count - Self.maxWaiting).map { entries[$0].id })
            entries.removeAll { dropped.contains($0.id) }
        }
    }

    /// Where each comment is at `now` on a lane from `left` to `right`; those that have left it are
    /// dropped, those whose turn came enter.
    func placed(now: Double, left: Int, right: Int) -> [Placed] {
        var previousEnd: Double?
        var blocked = false
        var shown: [Placed] = []
        var kept: [Entry] = []
        for var entry in entries {
            if entry.entered == nil {
                // Its turn: when the one before has moved its width and a gap from the right end
                // (and never before one that waits ahead of it).
                let turn = max(previousEnd ?? entry.arrived, entry.arrived)
                guard !blocked, turn <= now else {
                    kept.append(entry)
                    blocked = true
                    continue
                }
                entry.entered = turn
            }
            guard let entered = entry.entered else { continue }
            let width = entry.image.image.width
            previousEnd = entered + Double(width + gap) / speed
            let x = right - Int(((now - entered) * speed).rounded(.down))
            if x + width <= left { continue }  // gone past the left end
            kept.append(entry)
            shown.append(Placed(id: entry.id, x: x, image: entry.image))
        }
        entries = kept
        return shown
    }

    /// Whether the row `id` was taken onto the line (or left out) already.
    func hasSeen(_ id: String) -> Bool { seen.contains(id) }

    /// Whether anything is on the lane or waiting for it: the lane then moves.
    var isMoving: Bool { !entries.isEmpty }
}

extension TickerLane {
    /// Draws the comments `placed` on the line `lane`, each centred on the bar's height, clipped to it.
    static func paint(_ placed: [Placed], in lane: PixelRect, barHeight: Int, on frame: FrameBuffer) {
        guard !placed.isEmpty, !lane.isEmpty else { return }
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(lane.x), Double(lane.y), Double(lane.width), Double(lane.height))
            cairo_clip(cr)
            for item in placed {
                let image = item.image.image
                cairo_set_source_surface(cr, image.surface, Double(item.x), Double((barHeight - image.height) / 2))
                cairo_paint(cr)
            }
        }
    }
}
