// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CCairo
import CPangoCairo
import CommentBarCore

/// Turns bar states into frames, the way the seeds' fast path does:
/// - a stable layer (background, avatar, icons, counters, status) cached and
///   drawn again only when one of its inputs changes;
/// - each comment laid out and drawn once into its own image;
/// - a frame is built on the frame published before it: a clock tick copies it
///   and redraws the clock from glyphs made once; new comments scroll the
///   comment area in the same copy and blend only the new rows. Anything else
///   composes the frame from the stable layer and the comment images.
/// When nothing visible changed, no frame is made at all. Every path gives the
/// same pixels as composing from nothing (tested).
///
/// Not thread-safe: one renderer belongs to one frame loop.
public final class BarRenderer {
    public private(set) var settings: BarSettings
    public let width: Int
    public let height: Int

    private let engine = TextEngine()
    private let images: ImageCache
    /// Emote pictures as they arrive (nil: emotes show as their text).
    private let emotes: EmoteImages?
    private var lastEmoteRevision: UInt64 = 0
    /// The frame each animated emote of the last frame showed, in `animatedPlacements` order.
    private var lastAnimationFrames: [Int] = []
    private var layout: BarLayout
    /// What the comment rows' images depend on: they are laid out again only when it changes.
    private var textStyle: TextStyle
    private var clock: ClockFace?
    private var stable: StableLayer
    private var lineImages: [String: LineImage] = [:]
    /// The pinned comment's strip, while one is pinned.
    private var pinStrip: PinStrip?
    /// Where the rows stack: the comment area below the pinned comment's strip, if any.
    private var rowsArea: PixelRect

    /// A comment row as placed in the last published frame.
    private struct Placed {
        let image: LineImage
        let y: Int
    }

    /// What the last published frame shows, to know what changed.
    private var lastShown: FrameContent?
    /// Rows of the last frame, newest first; nil when the next frame must be composed from nothing.
    private var lastPlaced: [Placed]?
    /// Where the last frame's comment rows are (around them, the comment area is the stable layer's).
    private var lastRows: PixelRect
    /// Whether the stable layer is the same on every row of the comment area,
    /// so that scrolling rows gives the same pixels as drawing them again.
    private var commentAreaScrolls = false
    /// What each pool slot lacks of the last frame.
    private var damage: DamageTracker

    /// What the last `render` did, for benchmarks and tests.
    public struct Work: Equatable, Sendable {
        public enum Kind: Sendable { case none, composed, scrolled, copied }
        public var kind = Kind.none
        public var stableRedrawn = false
        public var linesLaidOut = 0
        public var linesBlended = 0
        /// Bytes copied to bring the back buffer up to the last frame.
        public var bytesCaughtUp = 0
        /// Rows of the comment area written by a scroll (those above every comment are left).
        public var rowsScrolled = 0
        /// Bytes a scroll wrote: its rows, as wide as the widest comment row (the area beside the
        /// rows is left).
        public var bytesScrolled = 0
    }
    public private(set) var lastWork = Work()
    /// Whether the last frame shows an animated emote: its steps are due at times of their own,
    /// so the frame loop comes round often while one shows (`ServeSession`).
    public var showsAnimation: Bool { !lastAnimationFrames.isEmpty }
    /// How many times the avatar panel was drawn (not copied from its image), for tests.
    var avatarPanelDraws: Int { stable.avatarPanel.draws }
    /// The problem the header shows (an image that cannot be used).
    var notice: String? { stable.drawn?.notice }

    /// `remoteImages`: where fetched `https://` images arrive (nil: they are never shown).
    public init(settings: BarSettings, width: Int, height: Int, remoteImages: RemoteImageStore? = nil,
                emotes: EmoteImages? = nil) {
        self.settings = settings.clamped()
        images = ImageCache(remote: remoteImages)
        self.emotes = emotes
        self.width = width
        self.height = height
        layout = BarLayout(settings: self.settings, width: width, height: height)
        rowsArea = layout.comments
        lastRows = layout.comments
        textStyle = TextStyle(settings: self.settings, layout: layout)
        stable = StableLayer(width: width, height: height)
        damage = DamageTracker(width: width, height: height)
        clock = Self.makeClock(settings: self.settings, layout: layout, engine: engine)
    }

    /// New settings take effect in the next frame; only what they touch is drawn again.
    public func update(settings newSettings: BarSettings) {
        let newSettings = newSettings.clamped()
        guard newSettings != settings else { return }
        settings = newSettings
        layout = BarLayout(settings: settings, width: width, height: height)
        let newTextStyle = TextStyle(settings: settings, layout: layout)
        if newTextStyle != textStyle {
            textStyle = newTextStyle
            lineImages.removeAll()
        }
        pinStrip = nil
        rowsArea = layout.comments
        if Self.clockStyle(settings: settings, layout: layout) != clock?.style {
            clock = Self.makeClock(settings: settings, layout: layout, engine: engine)
        }
        images.forgetFailures()
        lastPlaced = nil
    }

    /// Drops every cache of text and layers: the next frame is drawn from nothing (a full redraw).
    /// Decoded pictures and the avatar panel made from them are kept: they depend on none of
    /// the frame's changing inputs, and are drawn again whenever what they show changes.
    public func invalidateCaches() {
        lineImages.removeAll()
        pinStrip = nil
        clock = Self.makeClock(settings: settings, layout: layout, engine: engine)
        stable.forget()
        lastShown = nil
        lastPlaced = nil
    }

    /// Lays out the rows of `state` that have no image yet (new comments, rows whose picture
    /// arrived), so that the frame which shows them only places them: the frame loop calls this
    /// as soon as the state changed, before it waits for the frame's turn. Returns how many rows
    /// it laid out. Drawing the frame afterwards gives the same pixels as without it.
    @discardableResult
    public func prepare(_ state: BarState) -> Int {
        engine.renewFontsIfFull()
        forgetRowsWaitingForPictures()
        var work = Work()
        _ = place(state.lines, work: &work)
        return work.linesLaidOut
    }

    /// Draws the frame for `state` at unix time `now` into the pool's back buffer
    /// and publishes it. Returns false, having drawn nothing, when the frame would
    /// look the same as the last one.
    @discardableResult
    /// `notice`: a line for the status while the chat is live (why an item could not be read aloud).
    public func render(_ state: BarState, obs: OBSLiveState = OBSLiveState(), notice: String? = nil, now: Double,
                       into pool: any FramePool) -> Bool {
        lastWork = Work()
        engine.renewFontsIfFull()
        let content = content(of: state, obs: obs, notice: notice, now: now)
        forgetRowsWaitingForPictures()
        let changes = FrameChanges(from: lastShown, to: content, stableLayer: stable.drawn)
        guard changes.any || lastPlaced == nil || animationMoved(now: now) else { return false }

        let frame = pool.backBuffer()
        let slot = pool.backSlot
        guard frame.width == width, frame.height == height else { return false }
        // Another pool: nothing in it is known.
        if damage.use(pool: ObjectIdentifier(pool)) { lastPlaced = nil }
        if changes.stable { redrawStableLayer(content.stable) }
        updatePinStrip(content.pinned)
        let placed = changes.lines || lastPlaced == nil ? place(state.lines, work: &lastWork) : (lastPlaced ?? [])
        let animation = animationFrames(placed, now: now)
        guard let stablePixels = stable.image.data() else { return false }

        let changed: [PixelRect]
        let rows = rowsBounds(placed)
        if let previous = lastPlaced, let base = pool.lastPublished(), let scroll = scrollPlan(from: previous, to: placed) {
            let rowsMoved = scroll.distance != 0 || scroll.newRows != 0 || previous.count != placed.count
            // Around both this frame's rows and those of the frame the slot holds (above the top
            // row, right of the widest), the area is the stable layer's in both: only the rows'
            // rectangle is written.
            let rewrite = spanning(rows, damage.rows(in: slot) ?? rowsArea)
            catchUp(frame, slot: slot, from: base, except: rowsMoved ? rowsArea : nil)
            changed = update(frame, base: base, stablePixels: stablePixels, rows: placed,
                             scroll: rowsMoved ? scroll : nil, rewrite: rewrite,
                             rowsChanged: spanning(rows, lastRows), animation: animation, content: content,
                             changes: changes)
        } else {
            // What lies under the rows may have changed (the stable layer, the comment area): the
            // other slots' comment areas are written whole when they are next used.
            damage.forgetRows()
            changed = compose(frame, stablePixels: stablePixels, rows: placed, animation: animation, content: content)
        }
        pool.publish()
        damage.published(slot: slot, changed: changed, rows: rows)
        lastRows = rows
        lastShown = content
        lastPlaced = placed
        lastAnimationFrames = animation
        return true
    }

    /// What the frame for `state` at `now` shows. The images it names are loaded here (decoded
    /// once, then looked up), so one that cannot be used shows as a notice in this very frame.
    private func content(of state: BarState, obs: OBSLiveState, notice: String?, now: Double) -> FrameContent {
        let reading = BroadcastReading.resolve(settings.clockSource, feedStart: state.streamStart,
                                               feedStatus: state.status, obs: obs)
        let clockText = settings.showClock && !reading.clockHidden
            ? BarState.elapsedText(since: reading.start, now: now) : ""
        var inputs = StableInputs(
            settings: settings, layout: layout, viewers: state.viewers,
            streamViewers: settings.viewersMode == .each ? state.viewersByStream : [], giftsTotal: state.giftsTotal,
            mic: MicState.resolve(obs: obs.mic, feed: state.micOn), onAir: reading.onAir,
            clockHourDigits: max(2, clockText.split(separator: ":").first?.count ?? 2),
            // The streamer's own files win over what a feed names.
            avatar: settings.avatarPath.isEmpty ? state.avatar : .file(path: settings.avatarPath),
            background: settings.backgroundPath.isEmpty ? state.background : .file(path: settings.backgroundPath),
            status: state.status, relayStatus: state.relayStatus,
            remoteImagesRevision: images.remote?.revision ?? 0, notice: notice.map(TextSanitizer.statusLine))
        if let problem = StableLayer.preload(inputs, images: images) {
            inputs.notice = inputs.notice ?? problem
        }
        return FrameContent(stable: inputs, linesRevision: state.linesRevision, clockText: clockText,
                            meterLevel: layout.header.meter != nil ? obs.micLevel ?? 0 : nil,
                            pinned: state.pinned.flatMap { $0.holds(at: now) ? $0.line : nil })
    }

    /// The strip for the pinned comment (nil: none): made when the pin or the rows' style
    /// changed, and then the rows move below it (or back up), so the frame is composed.
    private func updatePinStrip(_ pinned: ChatLine?) {
        guard pinned != pinStrip?.line || (pinStrip != nil && pinStrip?.style != textStyle) else { return }
        pinStrip = pinned.map { PinStrip(line: $0, style: textStyle, engine: engine, emotes: emotes) }
        let area = layout.comments
        if let pinStrip {
            let taken = pinStrip.height + layout.rowGap
            rowsArea = PixelRect(x: area.x, y: area.y + taken, width: area.width, height: max(0, area.height - taken))
            lastWork.linesLaidOut += 1
        } else {
            rowsArea = area
        }
        lastPlaced = nil
        damage.forgetRows()
    }

    /// A picture a shown row waits for has arrived (or failed): that row is laid out again, and
    /// so is the pinned comment's strip when it waits for one (it is made again in this frame).
    private func forgetRowsWaitingForPictures() {
        guard let revision = emotes?.revision, revision != lastEmoteRevision else { return }
        lastEmoteRevision = revision
        if lastPlaced?.contains(where: { !$0.image.pendingURLs.isEmpty }) == true { lastPlaced = nil }
        if let strip = pinStrip, arrived(strip.pendingURLs) {
            pinStrip = nil
            lastPlaced = nil
        }
    }

    /// Whether an animated emote of the last frame shows another frame of its animation at `now`.
    private func animationMoved(now: Double) -> Bool {
        lastPlaced.map { animationFrames($0, now: now) != lastAnimationFrames } ?? false
    }

    private func redrawStableLayer(_ inputs: StableInputs) {
        stable.draw(inputs, engine: engine, images: images, clock: clock)
        commentAreaScrolls = stable.isUniform(in: layout.comments)
        lastWork.stableRedrawn = true
        lastPlaced = nil
    }

    /// The frame from nothing: the stable layer, every row, the clock and the meter.
    private func compose(_ frame: FrameBuffer, stablePixels: UnsafeMutableRawPointer, rows placed: [Placed],
                         animation: [Int], content: FrameContent) -> [PixelRect] {
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: damage.bounds)
        blend(placed[...], into: frame)
        blendPinStrip(into: frame)
        _ = redrawAnimated(placed, frames: animation, in: frame, stablePixels: nil)
        drawClock(content.clockText, in: frame)
        drawMeter(content.meterLevel, in: frame)
        lastWork.kind = .composed
        return [damage.bounds]
    }

    /// The frame built on the last one (which the slot has caught up with): the comment area
    /// scrolls when `scroll` is given (`rewrite`, its part the slot must have written anew;
    /// `rowsChanged`: where it differs from the last frame's), the clock and the meter are
    /// redrawn if they moved, animated emotes step. Returns where it now differs from the last frame.
    private func update(_ frame: FrameBuffer, base: FrameBuffer, stablePixels: UnsafeMutableRawPointer,
                        rows placed: [Placed], scroll: ScrollPlan?, rewrite: PixelRect, rowsChanged: PixelRect,
                        animation: [Int], content: FrameContent, changes: FrameChanges) -> [PixelRect] {
        var changed: [PixelRect] = []
        if let scroll {
            scrollArea(frame, base: base, stablePixels: stablePixels, by: scroll.distance, keptTop: scroll.keptTop,
                       in: rewrite)
            blend(placed.prefix(scroll.newRows), into: frame)
            if !rowsChanged.isEmpty { changed.append(rowsChanged) }
        }
        if changes.clock {
            changed.append(restore(stable.clockRect, in: frame, from: stablePixels))
            drawClock(content.clockText, in: frame)
        }
        if changes.meter, let meter = layout.header.meter {
            changed.append(restore(meter, in: frame, from: stablePixels))
            drawMeter(content.meterLevel, in: frame)
        }
        if scroll != nil || animation != lastAnimationFrames {
            changed += redrawAnimated(placed, frames: animation, in: frame, stablePixels: stablePixels)
        }
        lastWork.kind = scroll != nil ? .scrolled : .copied
        return changed
    }

    /// The comments that fit, newest first and at the bottom, with their images (those not
    /// cached are laid out, counted in `work`). Images of rows that no longer fit are dropped.
    private func place(_ lines: [ChatLine], work: inout Work) -> [Placed] {
        let area = rowsArea
        guard area.width > 0, area.height > 0 else { return [] }
        var placed: [Placed] = []
        var bottom = area.maxY
        var linesUsed = 0
        var kept: [String: LineImage] = [:]
        kept.reserveCapacity(lineImages.count + 1)
        for line in lines.reversed() {
            let image: LineImage
            if let cached = lineImages[line.id], cached.line == line, !arrived(cached.pendingURLs) {
                image = cached
            } else {
                image = LineImage(line: line, style: textStyle, engine: engine, emotes: emotes)
                work.linesLaidOut += 1
            }
            // Kept even when it does not fit, so the next frame need not lay it out to learn that again.
            kept[line.id] = image
            let top = bottom - image.height
            // The newest comment always shows (clipped if the bar is tiny); older ones only whole.
            if !placed.isEmpty && (top < area.y || linesUsed + image.lineCount > settings.maxLines) { break }
            placed.append(Placed(image: image, y: top))
            linesUsed += image.lineCount
            bottom = top - layout.rowGap
        }
        lineImages = kept
        return placed
    }

    /// Where `placed` are drawn: from the top row down to the bottom of the comment area, as wide
    /// as the widest row (its animated emotes included).
    private func rowsBounds(_ placed: [Placed]) -> PixelRect {
        let area = rowsArea
        guard let top = placed.last?.y else { return PixelRect(x: area.x, y: area.maxY, width: 0, height: 0) }
        let right = placed.map { row in
            row.image.animated.reduce(row.image.image.width) { max($0, $1.rect.maxX) }
        }.max() ?? area.width
        return PixelRect(x: area.x, y: top, width: right, height: area.maxY - top).intersection(area)
    }

    /// The part of the comment area that holds both `rows` and `other` (each as `rowsBounds` gives
    /// them: from the area's left edge to its bottom).
    private func spanning(_ rows: PixelRect, _ other: PixelRect) -> PixelRect {
        let area = rowsArea
        let top = min(rows.y, other.y)
        return PixelRect(x: area.x, y: top, width: max(rows.maxX, other.maxX) - area.x, height: area.maxY - top)
            .intersection(area)
    }

    /// How to get from the last frame's rows to these by scrolling: the rows kept
    /// must be the same images, all moved up by one distance, with only new rows
    /// below them. Nil when the frame must be composed instead.
    private func scrollPlan(from previous: [Placed], to placed: [Placed]) -> ScrollPlan? {
        guard commentAreaScrolls, placed.allSatisfy({ $0.y >= rowsArea.y }) else { return nil }
        guard let firstKept = previous.first,
              let newRows = placed.firstIndex(where: { $0.image === firstKept.image })
        else {
            // Nothing kept: only possible without a scroll if both are empty.
            return previous.isEmpty && placed.isEmpty ? ScrollPlan(distance: 0, newRows: 0, keptTop: rowsArea.maxY) : nil
        }
        let distance = firstKept.y - placed[newRows].y
        guard distance >= 0 else { return nil }
        for (offset, row) in placed[newRows...].enumerated() {
            guard offset < previous.count, previous[offset].image === row.image,
                  previous[offset].y - distance == row.y else { return nil }
        }
        return ScrollPlan(distance: distance, newRows: newRows, keptTop: placed.last?.y ?? rowsArea.maxY)
    }

    /// The comment rows moved up by `distance`, with `newRows` new rows below them; rows
    /// above `keptTop` (the top kept row) are the stable layer's.
    private struct ScrollPlan {
        let distance: Int
        let newRows: Int
        let keptTop: Int
    }

    /// Copies from the last frame into `frame` what changed since the frame this
    /// slot holds (everything, if that is not known), except `skipped`, which the
    /// caller writes anew.
    private func catchUp(_ frame: FrameBuffer, slot: Int, from base: FrameBuffer, except skipped: PixelRect?) {
        var bytes = 0
        for rect in damage.missing(in: slot) {
            for part in skipped.map(rect.subtracting) ?? [rect] {
                copyRows(from: base.pixels, sourceStride: base.stride, to: frame.pixels,
                         destinationStride: frame.stride, rect: part)
                bytes += part.width * part.height * 4
            }
        }
        lastWork.bytesCaughtUp = bytes
    }

    /// Writes `rect` of the comment area from the last frame's rows moved up by `distance`; rows
    /// above the top kept comment and rows left empty at the bottom come from the stable layer.
    private func scrollArea(_ frame: FrameBuffer, base: FrameBuffer, stablePixels: UnsafeMutableRawPointer,
                            by distance: Int, keptTop: Int, in rect: PixelRect) {
        let area = rowsArea
        let written = rect.intersection(area)
        guard !written.isEmpty else { return }
        let stableStride = stable.image.stride
        let rowBytes = written.width * 4
        lastWork.rowsScrolled = written.height
        lastWork.bytesScrolled = written.height * rowBytes
        for row in written.y..<written.maxY {
            let source: UnsafeRawPointer =
                row < keptTop || row + distance >= area.maxY
                ? UnsafeRawPointer(stablePixels + row * stableStride + written.x * 4)
                : UnsafeRawPointer(base.pixels + (row + distance) * base.stride + written.x * 4)
            (frame.pixels + row * frame.stride + written.x * 4).copyMemory(from: source, byteCount: rowBytes)
        }
    }

    private func blend(_ rows: ArraySlice<Placed>, into frame: FrameBuffer) {
        guard !rows.isEmpty else { return }
        let area = rowsArea
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            for row in rows {
                cairo_set_source_surface(cr, row.image.image.surface, Double(area.x), Double(row.y))
                cairo_paint(cr)
            }
        }
        lastWork.linesBlended += rows.count
    }

    /// The pinned comment's strip at the top of the comment area, clipped to it.
    private func blendPinStrip(into frame: FrameBuffer) {
        guard let pinStrip else { return }
        let area = layout.comments
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            cairo_set_source_surface(cr, pinStrip.image.surface, Double(area.x), Double(area.y))
            cairo_paint(cr)
        }
    }

    /// Whether a picture among `urls` (loading or not yet asked for when a row was laid out)
    /// has arrived or failed.
    private func arrived(_ urls: [String]) -> Bool {
        guard let emotes, !urls.isEmpty else { return false }
        return urls.contains { url in
            switch emotes.state(of: url) {
            case .ready?, .failed?: return true
            case .loading?, nil: return false
            }
        }
    }

    /// The frame each animated emote of `placed` shows at `now` (rows newest first, emotes in row order).
    private func animationFrames(_ placed: [Placed], now: Double) -> [Int] {
        placed.flatMap { row in row.image.animated.map { $0.art.frameIndex(at: now) } }
    }

    /// Draws the animated emotes of `placed` at `frames`. With `stablePixels` (a frame built
    /// on the last one), each emote's rectangle is first rebuilt from the stable layer and its
    /// row's image, and the rectangles are returned as damage.
    private func redrawAnimated(_ placed: [Placed], frames: [Int], in frame: FrameBuffer,
                                stablePixels: UnsafeMutableRawPointer?) -> [PixelRect] {
        let area = rowsArea
        var damage: [PixelRect] = []
        var index = 0
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            for row in placed {
                for (rect, art) in row.image.animated {
                    let target = PixelRect(x: area.x + rect.x, y: row.y + rect.y, width: rect.width, height: rect.height)
                    let shown = target.intersection(area)
                    if let stablePixels, !shown.isEmpty {
                        cairo_surface_flush(cairo_get_target(cr))
                        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                                 destinationStride: frame.stride, rect: shown)
                        cairo_surface_mark_dirty(cairo_get_target(cr))
                        cairo_save(cr)
                        cairo_rectangle(cr, Double(shown.x), Double(shown.y), Double(shown.width), Double(shown.height))
                        cairo_clip(cr)
                        cairo_set_source_surface(cr, row.image.image.surface, Double(area.x), Double(row.y))
                        cairo_paint(cr)
                        cairo_restore(cr)
                        damage.append(shown)
                    }
                    LineImage.draw(art, frame: index < frames.count ? frames[index] : 0, in: target, on: cr)
                    index += 1
                }
            }
        }
        return damage
    }

    private func drawClock(_ text: String, in frame: FrameBuffer) {
        guard let clock, !text.isEmpty else { return }
        let rect = stable.clockRect
        // The idle clock is dimmed: it must never read as a running one.
        let alpha = text == BarState.idleClockText ? 0.4 : 1
        withCairo(on: frame) { cr in clock.draw(text, on: cr, x: rect.x, y: rect.y, alpha: alpha) }
    }

    private func drawMeter(_ level: Int?, in frame: FrameBuffer) {
        guard let level, let rect = layout.header.meter else { return }
        withCairo(on: frame) { cr in
            Icons.levelMeter(cr, rect: rect, level: level, steps: OBSLiveState.MicLevel.steps)
        }
    }

    /// Puts the stable layer back in `rect` (what is drawn there is about to change); returns
    /// the part of it inside the frame.
    private func restore(_ rect: PixelRect, in frame: FrameBuffer, from stablePixels: UnsafeMutableRawPointer) -> PixelRect {
        let rect = rect.clamped(width: width, height: height)
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: rect)
        return rect
    }

    private static func clockStyle(settings: BarSettings, layout: BarLayout) -> ClockFace.Style? {
        guard settings.showClock else { return nil }
        return ClockFace.Style(family: settings.font.face, size: layout.header.textSize,
                               color: RGBA(obsABGR: settings.textColor))
    }

    private static func makeClock(settings: BarSettings, layout: BarLayout, engine: TextEngine) -> ClockFace? {
        clockStyle(settings: settings, layout: layout).map { ClockFace(engine: engine, style: $0) }
    }
}
