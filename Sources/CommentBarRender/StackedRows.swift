// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarFrames
import CommentBarCore

/// The comment area of the bar and the box (`CommentArea`): rows stacked from the newest edge,
/// the pinned comment's strip above them, rows entering and fading (`RowMotion`). A frame is
/// built on the last one where it can: new comments scroll the area in the same copy and only
/// the new rows are blended; anything else composes the frame from the stable layer and the
/// rows' images. Every path gives the same pixels as composing from nothing (tested).
final class StackedRows: CommentArea {
    private let kit: AreaKit
    /// Each comment's image, by row id: laid out once.
    private var lineImages: [String: LineImage] = [:]
    /// The pinned comment's strip, while one is pinned.
    private var pinStrip: PinStrip?
    /// The audience's strip (the poll, the queue, the winner), under the pinned one, while there is one.
    private var audienceStrip: AudienceStrip?
    /// Where the rows stack: the comment area below the pinned comment's strip, if any.
    private var rowsArea: PixelRect
    /// Rows entering and fading (nil: neither is on, every row is at rest).
    private let motion: RowMotion?
    /// The rows' revision `motion` has noted.
    private var motionNoted: UInt64?
    /// Rows of the last frame, newest first; nil when the next frame must be composed from nothing.
    private var lastPlaced: [PlacedRow]?
    /// How each row of the last frame was drawn (entering, fading), by row id; rows at rest are absent.
    private var lastVisuals: [String: RowVisual] = [:]
    /// Where the last frame's comment rows are (around them, the comment area is the stable layer's).
    private var lastRows: PixelRect
    /// The frame each animated emote of the last frame showed, in `animatedPlacements` order.
    private var lastAnimationFrames: [Int] = []
    /// Whether the stable layer is the same on every row of the comment area,
    /// so that scrolling rows gives the same pixels as drawing them again.
    private var commentAreaScrolls = false
    /// Whether a row of the last frame entered or faded.
    private var moving = false

    init(kit: AreaKit) {
        self.kit = kit
        motion = RowMotion(settings: kit.settings)
        rowsArea = kit.layout.comments
        lastRows = kit.layout.comments
    }

    var showsAnimation: Bool { !lastAnimationFrames.isEmpty || moving }

    /// How often an animated emote of the last frame is looked at again (its steps).
    static let animationStep = 0.1

    func nextChange(after now: Double, step: Double) -> Double? {
        let emotes = lastAnimationFrames.isEmpty ? nil : now + Self.animationStep
        guard let motion, let placed = lastPlaced else { return emotes }
        let rows = motion.nextChange(after: now, ids: placed.map(\.image.line.id), step: step)
        return [rows, emotes].compactMap { $0 }.min()
    }

    var elements: [(name: String, rect: PixelRect)] {
        var elements: [(name: String, rect: PixelRect)] = []
        if let pinStrip {
            let area = kit.layout.comments
            elements.append(("pinned strip", PixelRect(x: area.x, y: area.y, width: pinStrip.image.width,
                                                       height: pinStrip.height).intersection(area)))
        }
        if let audienceStrip, let top = audienceTop {
            let area = kit.layout.comments
            elements.append(("audience strip", PixelRect(x: area.x, y: top, width: audienceStrip.width,
                                                         height: audienceStrip.height).intersection(area)))
        }
        for row in lastPlaced ?? [] {
            elements.append(("row \(row.image.line.id)", PixelRect(x: rowsArea.x, y: row.y, width: row.image.image.width,
                                                                  height: row.image.height).intersection(rowsArea)))
        }
        return elements
    }

    func prepare(_ state: BarState) {
        _ = place(state.lines)
    }

    func picturesArrived() {
        if lastPlaced?.contains(where: { !$0.image.pendingURLs.isEmpty }) == true { lastPlaced = nil }
        if let strip = pinStrip, kit.arrived(strip.pendingURLs) {
            pinStrip = nil
            lastPlaced = nil
        }
    }

    func forgetLastFrame() {
        pinStrip = nil
        audienceStrip = nil
        rowsArea = kit.layout.comments
        lastPlaced = nil
    }

    func forgetImages() {
        lineImages.removeAll()
    }

    func render(_ state: BarState, content: FrameContent, changes: FrameChanges, now: Double,
                into pool: any FramePool) -> Bool {
        if let motion, motionNoted != state.linesRevision {
            motion.note(state.lines, now: now)
            motionNoted = state.linesRevision
        }
        let gone = motion.map { motion in { (id: String) in motion.isGone(id, now: now) } }
        let faded = gone.map { gone in lastPlaced?.contains { gone($0.image.line.id) } ?? false } ?? false
        guard changes.any || lastPlaced == nil || faded || animationMoved(now: now) || visualsMoved(now: now) else {
            return false
        }

        guard let (frame, slot, newPool) = kit.backBuffer(of: pool) else { return false }
        if newPool { lastPlaced = nil }
        if changes.stable {
            kit.redrawStableLayer(content.stable)
            commentAreaScrolls = kit.stable.isUniform(in: kit.layout.comments)
            lastPlaced = nil
        }
        updateStrips(pinned: content.pinned, audience: content.audience, words: content.audienceWords)
        let placed = changes.lines || lastPlaced == nil || faded ? place(state.lines, gone: gone) : (lastPlaced ?? [])
        let animation = RowFrames.animationFrames(placed, now: now)
        let visuals = RowFrames.visuals(of: placed, motion: motion, now: now)
        guard let stablePixels = kit.stable.image.data() else { return false }

        let changed: [PixelRect]
        let area = RowFrames.Area(rect: rowsArea, fromTop: kit.layout.newest == .top)
        let rows = RowFrames.bounds(placed, in: area)
        let looks = RowLooks(now: visuals, before: lastVisuals)
        if let previous = lastPlaced, let base = pool.lastPublished(),
           let scroll = RowFrames.scrollPlan(from: previous, to: placed, in: area, scrolls: commentAreaScrolls) {
            let rowsMoved = scroll.moves || previous.count != placed.count
            // Around both this frame's rows and those of the frame the slot holds (above the top
            // row, right of the widest), the area is the stable layer's in both: only the rows'
            // rectangle is written.
            let rewrite = RowFrames.spanning(rows, kit.damage.rows(in: slot) ?? area.rect, in: area.rect)
            kit.work.bytesCaughtUp = RowFrames.catchUp(frame, missing: kit.damage.missing(in: slot), from: base,
                                                       except: rowsMoved ? area.rect : nil)
            changed = update(frame, base: base, stablePixels: stablePixels, rows: placed,
                             scroll: rowsMoved ? scroll : nil, rewrite: rewrite,
                             rowsChanged: RowFrames.spanning(rows, lastRows, in: area.rect), animation: animation,
                             looks: looks, content: content, changes: changes)
        } else {
            // What lies under the rows may have changed (the stable layer, the comment area): the
            // other slots' comment areas are written whole when they are next used.
            kit.damage.forgetRows()
            changed = compose(frame, stablePixels: stablePixels, rows: placed, animation: animation,
                              visuals: visuals, content: content)
        }
        pool.publish()
        kit.damage.published(slot: slot, changed: changed, rows: rows)
        lastRows = rows
        lastPlaced = placed
        lastAnimationFrames = animation
        lastVisuals = visuals
        moving = motion?.moves(placed.map(\.image.line.id), now: now) ?? false
        return true
    }

    /// How the rows look in this frame and in the last one (entering, fading), by row id.
    struct RowLooks {
        let now: [String: RowVisual]
        let before: [String: RowVisual]
    }

    /// Whether a row of the last frame enters or fades on at `now`.
    private func visualsMoved(now: Double) -> Bool {
        guard let motion, let placed = lastPlaced else { return false }
        return RowFrames.visuals(of: placed, motion: motion, now: now) != lastVisuals
    }

    /// Whether an animated emote of the last frame shows another frame of its animation at `now`.
    private func animationMoved(now: Double) -> Bool {
        lastPlaced.map { RowFrames.animationFrames($0, now: now) != lastAnimationFrames } ?? false
    }

    /// The strips at the top of the comment area: the pinned comment's (made when the pin or the
    /// rows' style changed) and under it the audience's (made when its shape changed: what it
    /// shows, the style, its room). When either changes the rows move below them (or back up), so
    /// the frame is composed.
    private func updateStrips(pinned: ChatLine?, audience: AudienceView, words: AudienceWords) {
        var changed = false
        if pinned != pinStrip?.line || (pinStrip != nil && pinStrip?.style != kit.textStyle) {
            pinStrip = pinned.map { PinStrip(line: $0, style: kit.textStyle, engine: kit.engine, emotes: kit.emotes) }
            if pinStrip != nil { kit.work.linesLaidOut += 1 }
            changed = true
        }
        let area = kit.layout.comments
        let pinTaken = pinStrip.map { $0.height + kit.layout.rowGap } ?? 0
        // The audience's strip takes at most half of what the pin leaves (the rows keep the rest),
        // or two lines (the question and the leading option) where half holds fewer; on a bar too
        // low for one stacked line, one line of segments as in the ticker.
        let left = max(0, area.height - pinTaken)
        let twoLines = AudienceStrip.stackedHeight(lines: 2, style: kit.textStyle)
        let inline = left < AudienceStrip.stackedHeight(lines: 1, style: kit.textStyle)
        let shape = audience.isEmpty ? nil
            : AudienceStrip.Shape(view: audience, words: words, style: kit.textStyle, maxWidth: area.width,
                                  maxHeight: inline ? left : max(left / 2, min(left, twoLines)), inline: inline)
        if shape != audienceStrip?.shape {
            audienceStrip = shape.map { AudienceStrip(shape: $0, engine: kit.engine) }
            if audienceStrip != nil { kit.work.audienceStripsLaidOut += 1 }
            changed = true
        }
        guard changed else { return }
        let audienceTaken = (audienceStrip?.height).map { $0 > 0 ? $0 + kit.layout.rowGap : 0 } ?? 0
        let taken = pinTaken + audienceTaken
        rowsArea = taken == 0 ? area
            : PixelRect(x: area.x, y: area.y + taken, width: area.width, height: max(0, area.height - taken))
        lastPlaced = nil
        kit.damage.forgetRows()
    }

    /// Where the audience's strip starts: under the pinned one (nil: no strip shows).
    private var audienceTop: Int? {
        guard let audienceStrip, audienceStrip.height > 0 else { return nil }
        return kit.layout.comments.y + (pinStrip.map { $0.height + kit.layout.rowGap } ?? 0)
    }

    /// The frame from nothing: the stable layer, every row, the clock and the meter.
    private func compose(_ frame: FrameBuffer, stablePixels: UnsafeMutableRawPointer, rows placed: [PlacedRow],
                         animation: [Int], visuals: [String: RowVisual], content: FrameContent) -> [PixelRect] {
        let whole = kit.composeStable(frame, stablePixels: stablePixels)
        RowFrames.blend(placed[...], into: frame, area: rowsArea, visuals: visuals)
        kit.work.linesBlended += placed.count
        blendPinStrip(into: frame)
        blendAudienceStrip(into: frame)
        _ = RowFrames.redrawAnimated(placed, frames: animation, visuals: visuals, in: frame, area: rowsArea, stable: nil,
                                     stableStride: 0)
        kit.drawClockAndMeter(content, in: frame)
        kit.work.kind = .composed
        return [whole]
    }

    /// The frame built on the last one (which the slot has caught up with): the comment area
    /// scrolls when `scroll` is given (`rewrite`, its part the slot must have written anew;
    /// `rowsChanged`: where it differs from the last frame's), rows entering or fading are drawn
    /// again, the clock and the meter are redrawn if they moved, animated emotes step. Returns
    /// where it now differs from the last frame.
    private func update(_ frame: FrameBuffer, base: FrameBuffer, stablePixels: UnsafeMutableRawPointer,
                        rows placed: [PlacedRow], scroll: RowFrames.ScrollPlan?, rewrite: PixelRect, rowsChanged: PixelRect,
                        animation: [Int], looks: RowLooks, content: FrameContent,
                        changes: FrameChanges) -> [PixelRect] {
        var changed: [PixelRect] = []
        let area = rowsArea
        let stableStride = kit.stable.image.stride
        if let scroll {
            let written = RowFrames.scrollArea(frame, base: base, stable: stablePixels, stableStride: stableStride,
                                               plan: scroll, in: rewrite, area: area)
            (kit.work.rowsScrolled, kit.work.bytesScrolled) = written
            let newRows = placed.prefix(scroll.newRows)
            RowFrames.blend(newRows, into: frame, area: area, visuals: looks.now)
            kit.work.linesBlended += newRows.count
            if !rowsChanged.isEmpty { changed.append(rowsChanged) }
        }
        let restyled = looks.now.isEmpty && looks.before.isEmpty ? []
            : RowFrames.redrawMoving(placed, skipping: scroll?.newRows ?? 0, visuals: looks.now, before: looks.before,
                                     in: frame, area: area, stable: stablePixels, stableStride: stableStride)
        changed += restyled
        changed += kit.redrawClockAndMeter(changes, content: content, in: frame, stablePixels: stablePixels)
        if scroll != nil || animation != lastAnimationFrames || !restyled.isEmpty {
            changed += RowFrames.redrawAnimated(placed, frames: animation, visuals: looks.now, in: frame, area: area,
                                                stable: stablePixels, stableStride: stableStride)
        }
        kit.work.kind = scroll != nil ? .scrolled : .copied
        return changed
    }

    /// The comments that fit, newest first, stacked from the newest edge, with their images (those
    /// not cached are laid out, counted in the kit's work). Images of rows that no longer fit are
    /// dropped. `gone`: rows faded out (none older than one is shown).
    private func place(_ lines: [ChatLine], gone: ((String) -> Bool)? = nil) -> [PlacedRow] {
        // The area's properties read once into locals: none is read again in the loop.
        let area = rowsArea
        guard area.width > 0, area.height > 0 else { return [] }
        let fromTop = kit.layout.newest == .top
        let rowGap = kit.layout.rowGap
        let maxLines = kit.settings.maxLines
        let cache = lineImages
        var placed: [PlacedRow] = []
        var edge = fromTop ? area.y : area.maxY
        var linesUsed = 0
        var kept: [String: LineImage] = [:]
        kept.reserveCapacity(cache.count + 1)
        for line in lines.reversed() {
            if let gone, gone(line.id) { break }
            let image: LineImage
            if let cached = cache[line.id], cached.line == line, !kit.arrived(cached.pendingURLs) {
                image = cached
            } else {
                image = kit.lineImage(line)
            }
            // Kept even when it does not fit, so the next frame need not lay it out to learn that again.
            kept[line.id] = image
            let top = fromTop ? edge : edge - image.height
            let fits = fromTop ? top + image.height <= area.maxY : top >= area.y
            // The newest comment always shows (clipped if the bar is tiny); older ones only whole.
            if !placed.isEmpty && (!fits || linesUsed + image.lineCount > maxLines) { break }
            placed.append(PlacedRow(image: image, y: top))
            linesUsed += image.lineCount
            edge = fromTop ? top + image.height + rowGap : top - rowGap
        }
        lineImages = kept
        return placed
    }

    /// The pinned comment's strip at the top of the comment area, clipped to it.
    private func blendPinStrip(into frame: FrameBuffer) {
        guard let pinStrip else { return }
        let area = kit.layout.comments
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            cairo_set_source_surface(cr, pinStrip.image.surface, Double(area.x), Double(area.y))
            cairo_paint(cr)
        }
    }

    /// The audience's strip under the pinned one, clipped to the comment area.
    private func blendAudienceStrip(into frame: FrameBuffer) {
        guard let image = audienceStrip?.image, let top = audienceTop else { return }
        let area = kit.layout.comments
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            cairo_set_source_surface(cr, image.surface, Double(area.x), Double(top))
            cairo_paint(cr)
        }
    }
}
