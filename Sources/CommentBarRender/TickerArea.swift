// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarFrames
import CommentBarCore

/// The ticker's comment area (`CommentArea`, issue 38): one line the comments travel along, right
/// to left, from right of the header's items to the bar's right end (`TickerLane` places them).
/// A frame is the last one with the line drawn again, or the stable layer and the line.
final class TickerArea: CommentArea {
    private let kit: AreaKit
    let lane: TickerLane
    /// Images laid out ahead (`prepare`) for comments the line has not taken yet.
    private var lineImages: [String: LineImage] = [:]
    /// The comments in the last frame (nil: the line must be drawn whole).
    private(set) var lastLane: [TickerLane.Placed]?
    private var moving = false
    /// The audience's strip at the line's right end (nil: none shows).
    private var audienceStrip: AudienceStrip?

    init(kit: AreaKit) {
        self.kit = kit
        lane = TickerLane(speed: kit.settings.tickerSpeed, gap: Int(kit.layout.textSize * 2))
    }

    /// The line the comments travel along: from right of the header's items to the bar's right
    /// end, or to the audience's strip.
    var laneRect: PixelRect {
        let area = kit.layout.comments
        let left = min(max(area.x, kit.stable.laneStart), area.maxX)
        let right = audienceRect.map { max(left, $0.x - Int(kit.layout.textSize)) } ?? area.maxX
        return PixelRect(x: left, y: 0, width: right - left, height: kit.height)
    }

    /// Where the audience's strip is: at the comment area's right end, centred in the bar's height.
    private var audienceRect: PixelRect? {
        guard let audienceStrip, audienceStrip.width > 0 else { return nil }
        let area = kit.layout.comments
        return PixelRect(x: area.maxX - audienceStrip.width, y: (kit.height - audienceStrip.height) / 2,
                         width: audienceStrip.width, height: audienceStrip.height)
    }

    /// The audience's strip for `view`, made again when its shape changed; whether it did. It
    /// takes half of the line right of the header's items (the comments keep the rest), or on a
    /// short line up to three quarters of it, as much as ten characters' room.
    private func updateAudienceStrip(_ view: AudienceView, words: AudienceWords) -> Bool {
        let area = kit.layout.comments
        let room = area.maxX - min(max(area.x, kit.stable.laneStart), area.maxX)
        let shape = view.isEmpty ? nil
            : AudienceStrip.Shape(view: view, words: words, style: kit.textStyle,
                                  maxWidth: max(room / 2, min(room * 3 / 4, Int(kit.layout.textSize * 10))),
                                  maxHeight: kit.height, inline: true)
        guard shape != audienceStrip?.shape else { return false }
        audienceStrip = shape.map { AudienceStrip(shape: $0, engine: kit.engine) }
        if audienceStrip != nil { kit.work.audienceStripsLaidOut += 1 }
        return true
    }

    var showsAnimation: Bool { moving }

    func nextChange(after now: Double, step: Double) -> Double? {
        lane.isMoving ? step : nil
    }

    var elements: [(name: String, rect: PixelRect)] {
        let rect = laneRect
        let comments = (lastLane ?? []).map { item in
            let image = item.image.image
            return ("ticker \(item.id)", PixelRect(x: item.x, y: (kit.height - image.height) / 2, width: image.width,
                                                  height: image.height).intersection(rect))
        }
        return comments + (audienceRect.map { [("audience strip", $0)] } ?? [])
    }

    /// The new comments, laid out now for the frame that takes them onto the line.
    func prepare(_ state: BarState) {
        for line in state.lines.suffix(TickerLane.maxWaiting) where !lane.hasSeen(line.id) && lineImages[line.id] == nil {
            lineImages[line.id] = kit.lineImage(line)
        }
    }

    func picturesArrived() {}

    func forgetLastFrame() {
        lastLane = nil
        audienceStrip = nil
    }

    func forgetImages() {
        lineImages.removeAll()
        lastLane = nil
    }

    func render(_ state: BarState, content: FrameContent, changes: FrameChanges, now: Double,
                into pool: any FramePool) -> Bool {
        if changes.lines {
            lane.update(state.lines, now: now, laneWidth: max(laneRect.width, 1)) { line in
                if let cached = lineImages.removeValue(forKey: line.id), cached.line == line { return cached }
                return kit.lineImage(line)
            }
            // Images laid out ahead for rows the line has now taken or left out.
            lineImages = lineImages.filter { !lane.hasSeen($0.key) }
        }
        // A new strip moves the line's right end: the frame is composed.
        if updateAudienceStrip(content.audience, words: content.audienceWords) { lastLane = nil }
        var rect = laneRect
        var placed = lane.placed(now: now, left: rect.x, right: rect.maxX)
        let laneMoved = lastLane != placed
        guard changes.stable || changes.clock || changes.meter || laneMoved || lastLane == nil else { return false }

        guard let (frame, slot, newPool) = kit.backBuffer(of: pool) else { return false }
        if newPool { lastLane = nil }
        if changes.stable {
            kit.redrawStableLayer(content.stable)
            lastLane = nil
            // The header's items may end elsewhere: the strip's room with them.
            _ = updateAudienceStrip(content.audience, words: content.audienceWords)
            // The header's items may end elsewhere: the line starts right of them.
            if laneRect != rect {
                rect = laneRect
                placed = lane.placed(now: now, left: rect.x, right: rect.maxX)
            }
        }
        guard let stablePixels = kit.stable.image.data() else { return false }
        var changed: [PixelRect] = []
        if lastLane != nil, let base = pool.lastPublished() {
            kit.work.bytesCaughtUp = RowFrames.catchUp(frame, missing: kit.damage.missing(in: slot), from: base,
                                                       except: laneMoved ? rect : nil)
            if laneMoved {
                changed.append(kit.restore(rect, in: frame, from: stablePixels))
                TickerLane.paint(placed, in: rect, barHeight: kit.height, on: frame)
                kit.work.linesBlended += placed.count
            }
            changed += kit.redrawClockAndMeter(changes, content: content, in: frame, stablePixels: stablePixels)
            kit.work.kind = .copied
        } else {
            kit.damage.forgetRows()
            changed = [kit.composeStable(frame, stablePixels: stablePixels)]
            TickerLane.paint(placed, in: rect, barHeight: kit.height, on: frame)
            if let image = audienceStrip?.image, let strip = audienceRect {
                withCairo(on: frame) { cr in
                    cairo_set_source_surface(cr, image.surface, Double(strip.x), Double(strip.y))
                    cairo_paint(cr)
                }
            }
            kit.work.linesBlended += placed.count
            kit.drawClockAndMeter(content, in: frame)
            kit.work.kind = .composed
        }
        pool.publish()
        kit.damage.published(slot: slot, changed: changed)
        lastLane = placed
        moving = lane.isMoving
        return true
    }
}
