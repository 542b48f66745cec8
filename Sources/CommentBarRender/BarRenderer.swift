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
    /// The layout frames are drawn with now (a chat box's, with or without its status row).
    private var layout: BarLayout
    /// The chat box whose toggles show no header: its layout with a row for the chat's state and
    /// a problem, used while there is one to show (nil: the layout always has its header).
    private var statusLayout: BarLayout?
    /// The layout the settings give (`layout` unless the status row shows).
    private var quietLayout: BarLayout
    /// What the comment rows' images depend on: they are laid out again only when it changes.
    private var textStyle: TextStyle
    private var clock: ClockFace?
    private let stable: StableLayer
    private var lineImages: [String: LineImage] = [:]
    /// The colour each viewer's name was given, so every row of a viewer has the same.
    private let viewerColors = ViewerColors()
    /// The pinned comment's strip, while one is pinned.
    private var pinStrip: PinStrip?
    /// Where the rows stack: the comment area below the pinned comment's strip, if any.
    private var rowsArea: PixelRect
    /// Rows entering and fading (nil: neither is on, every row is at rest).
    private var motion: RowMotion?
    /// The ticker's line (nil: not the ticker layout).
    private(set) var ticker: TickerLane?

    /// What the last published frame shows, to know what changed.
    private var lastShown: FrameContent?
    /// Rows of the last frame, newest first; nil when the next frame must be composed from nothing.
    private var lastPlaced: [PlacedRow]?
    /// How each row of the last frame was drawn (entering, fading), by row id; rows at rest are absent.
    private var lastVisuals: [String: RowVisual] = [:]
    /// The ticker's comments in the last frame (nil: the lane must be drawn whole).
    private(set) var lastLane: [TickerLane.Placed]?
    /// Where the last frame's comment rows are (around them, the comment area is the stable layer's).
    private var lastRows: PixelRect
    /// The rows' revision `motion` has noted.
    private var motionNoted: UInt64?
    /// Whether the stable layer is the same on every row of the comment area,
    /// so that scrolling rows gives the same pixels as drawing them again.
    private var commentAreaScrolls = false
    /// What each pool slot lacks of the last frame.
    private var damage: DamageTracker
    /// Whether something moved in the last frame (a row entering or fading, the ticker).
    private var moving = false

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
    /// Whether the last frame shows an animated emote, a row entering or fading, or the ticker
    /// moving: its steps are due at times of their own, so the frame loop comes round often while
    /// one shows (`ServeSession`); `nextChange(after:)` says when exactly.
    public var showsAnimation: Bool { !lastAnimationFrames.isEmpty || moving }

    /// When the picture next changes by itself after unix time `now`, through the renderer's own
    /// motion (issue 38): the next frame's time (1/fps on) while a row enters or fades or the
    /// ticker moves, when the first row starts to fade, or nil when nothing will. The frame loop
    /// wakes then (`NextRedraw`), and never for a bar at rest.
    public func nextChange(after now: Double) -> Double? {
        let step = now + 1 / Double(max(settings.maxFPS, 1))
        if let ticker { return ticker.isMoving ? step : nil }
        guard let motion, let placed = lastPlaced else { return nil }
        return motion.nextChange(after: now, ids: placed.map(\.image.line.id), step: step)
    }

    /// Every element of the last frame and where it is (the header's items, the avatar, the rows,
    /// the pinned strip, the ticker's comments), for the test that none is drawn over another.
    var drawnElements: [(name: String, rect: PixelRect)] {
        var elements = stable.elements
        if let pinStrip {
            let area = layout.comments
            elements.append(("pinned strip", PixelRect(x: area.x, y: area.y, width: pinStrip.image.width,
                                                       height: pinStrip.height).intersection(area)))
        }
        for row in lastPlaced ?? [] {
            elements.append(("row \(row.image.line.id)", PixelRect(x: rowsArea.x, y: row.y, width: row.image.image.width,
                                                                  height: row.image.height).intersection(rowsArea)))
        }
        let lane = laneRect
        for item in lastLane ?? [] {
            let image = item.image.image
            elements.append(("ticker \(item.id)", PixelRect(x: item.x, y: (height - image.height) / 2, width: image.width,
                                                           height: image.height).intersection(lane)))
        }
        return elements.filter { !$0.rect.isEmpty }
    }

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
        quietLayout = layout
        rowsArea = layout.comments
        lastRows = layout.comments
        textStyle = TextStyle(settings: self.settings, layout: layout)
        stable = StableLayer(width: width, height: height)
        damage = DamageTracker(width: width, height: height)
        clock = Self.makeClock(settings: self.settings, layout: layout, engine: engine)
        startLook()
    }

    /// The parts of the look that keep their own state: the chat box's status row, rows entering
    /// and fading, the ticker.
    private func startLook() {
        let status = BarLayout(settings: settings, width: width, height: height, statusOnly: true)
        statusLayout = status.statusOnly ? status : nil
        motion = RowMotion(settings: settings)
        ticker = settings.layout == .ticker ? TickerLane(speed: settings.tickerSpeed, gap: Int(layout.textSize * 2)) : nil
        lastVisuals = [:]
        lastLane = nil
        moving = false
    }

    /// New settings take effect in the next frame; only what they touch is drawn again.
    /// A theme that cannot be used (`themeProblem`) leaves the look as it was: what the streamer
    /// left at its default keeps the look the bar had.
    public func update(settings newSettings: BarSettings) {
        var newSettings = newSettings.clamped()
        if newSettings.themeProblem != nil { newSettings.applyLook(settings.look) }
        guard newSettings != settings else { return }
        let lookChanged = newSettings.layout != settings.layout || newSettings.enter != settings.enter
            || newSettings.fadeAfter != settings.fadeAfter || newSettings.tickerSpeed != settings.tickerSpeed
            || newSettings.font.size != settings.font.size
        settings = newSettings
        layout = BarLayout(settings: settings, width: width, height: height)
        quietLayout = layout
        let newTextStyle = TextStyle(settings: settings, layout: layout)
        let styleChanged = newTextStyle != textStyle
        if styleChanged {
            textStyle = newTextStyle
            lineImages.removeAll()
        }
        // The ticker's comments are images of the old style: its line starts again.
        if lookChanged || (ticker != nil && styleChanged) {
            startLook()
        } else {
            let status = BarLayout(settings: settings, width: width, height: height, statusOnly: true)
            statusLayout = status.statusOnly ? status : nil
        }
        pinStrip = nil
        rowsArea = layout.comments
        if Self.clockStyle(settings: settings, layout: layout) != clock?.style {
            clock = Self.makeClock(settings: settings, layout: layout, engine: engine)
        }
        images.forgetFailures()
        lastPlaced = nil
        lastLane = nil
    }

    /// Drops every cache of text and layers: the next frame is drawn from nothing (a full redraw).
    /// Decoded pictures and the avatar panel made from them are kept: they depend on none of
    /// the frame's changing inputs, and are drawn again whenever what they show changes.
    public func invalidateCaches() {
        lineImages.removeAll()
        lastLane = nil
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
        if let ticker {
            // The ticker's new comments, laid out now for the frame that takes them onto its line.
            for line in state.lines.suffix(TickerLane.maxWaiting) where !ticker.hasSeen(line.id) && lineImages[line.id] == nil {
                lineImages[line.id] = LineImage(line: line, style: textStyle, engine: engine, emotes: emotes,
                                                viewers: viewerColors)
                work.linesLaidOut += 1
            }
        } else {
            _ = place(state.lines, work: &work)
        }
        return work.linesLaidOut
    }

    /// Draws the frame for `state` at unix time `now` into the pool's back buffer
    /// and publishes it. Returns false, having drawn nothing, when the frame would
    /// look the same as the last one.
    /// `notice`: a line for the status while the chat is live (why an item could not be read aloud).
    @discardableResult
    public func render(_ state: BarState, obs: OBSLiveState = OBSLiveState(), notice: String? = nil, now: Double,
                       into pool: any FramePool) -> Bool {
        lastWork = Work()
        engine.renewFontsIfFull()
        let content = content(of: state, obs: obs, notice: notice, now: now)
        use(content.stable.layout)
        forgetRowsWaitingForPictures()
        if ticker != nil { return renderTicker(state, content: content, now: now, into: pool) }
        if let motion, motionNoted != state.linesRevision {
            motion.note(state.lines, now: now)
            motionNoted = state.linesRevision
        }
        let changes = FrameChanges(from: lastShown, to: content, stableLayer: stable.drawn)
        let gone = motion.map { motion in { (id: String) in motion.isGone(id, now: now) } }
        let faded = gone.map { gone in lastPlaced?.contains { gone($0.image.line.id) } ?? false } ?? false
        guard changes.any || lastPlaced == nil || faded || animationMoved(now: now) || visualsMoved(now: now) else {
            return false
        }

        let frame = pool.backBuffer()
        let slot = pool.backSlot
        guard frame.width == width, frame.height == height else { return false }
        // Another pool: nothing in it is known.
        if damage.use(pool: ObjectIdentifier(pool)) { lastPlaced = nil }
        if changes.stable { redrawStableLayer(content.stable) }
        updatePinStrip(content.pinned)
        let placed = changes.lines || lastPlaced == nil || faded
            ? place(state.lines, work: &lastWork, gone: gone) : (lastPlaced ?? [])
        let animation = RowFrames.animationFrames(placed, now: now)
        let visuals = RowFrames.visuals(of: placed, motion: motion, now: now)
        guard let stablePixels = stable.image.data() else { return false }

        let changed: [PixelRect]
        let area = RowFrames.Area(rect: rowsArea, fromTop: layout.newest == .top)
        let rows = RowFrames.bounds(placed, in: area)
        let looks = RowLooks(now: visuals, before: lastVisuals)
        if let previous = lastPlaced, let base = pool.lastPublished(),
           let scroll = RowFrames.scrollPlan(from: previous, to: placed, in: area, scrolls: commentAreaScrolls) {
            let rowsMoved = scroll.moves || previous.count != placed.count
            // Around both this frame's rows and those of the frame the slot holds (above the top
            // row, right of the widest), the area is the stable layer's in both: only the rows'
            // rectangle is written.
            let rewrite = RowFrames.spanning(rows, damage.rows(in: slot) ?? area.rect, in: area.rect)
            lastWork.bytesCaughtUp = RowFrames.catchUp(frame, missing: damage.missing(in: slot), from: base,
                                                       except: rowsMoved ? area.rect : nil)
            changed = update(frame, base: base, stablePixels: stablePixels, rows: placed,
                             scroll: rowsMoved ? scroll : nil, rewrite: rewrite,
                             rowsChanged: RowFrames.spanning(rows, lastRows, in: area.rect), animation: animation,
                             looks: looks, content: content, changes: changes)
        } else {
            // What lies under the rows may have changed (the stable layer, the comment area): the
            // other slots' comment areas are written whole when they are next used.
            damage.forgetRows()
            changed = compose(frame, stablePixels: stablePixels, rows: placed, animation: animation,
                              visuals: visuals, content: content)
        }
        pool.publish()
        damage.published(slot: slot, changed: changed, rows: rows)
        lastRows = rows
        lastShown = content
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

    /// A chat box whose toggles show no header shows its status row while something needs saying:
    /// the comment area moves, the rows are placed again.
    private func use(_ next: BarLayout) {
        // Only the chat box without a header ever switches (the default bar compares nothing).
        guard statusLayout != nil, next != layout else { return }
        layout = next
        rowsArea = next.comments
        pinStrip = nil
        lastPlaced = nil
        damage.forgetRows()
    }

    /// Whether a row of the last frame enters or fades on at `now`.
    private func visualsMoved(now: Double) -> Bool {
        guard let motion, let placed = lastPlaced else { return false }
        return RowFrames.visuals(of: placed, motion: motion, now: now) != lastVisuals
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
        // A theme that could not be used is said, with its file and key.
        inputs.notice = inputs.notice ?? settings.themeProblem.map { TextSanitizer.statusLine("theme: " + $0) }
        if let problem = StableLayer.preload(inputs, images: images) {
            inputs.notice = inputs.notice ?? problem
        }
        if let statusLayout {
            // The chat box without a header row shows one while the chat is not live or a problem is.
            let says = StableLayer.detail(inputs) != nil || (state.status != .live && state.status != .paused)
            inputs.layout = says ? statusLayout : quietLayout
        }
        return FrameContent(stable: inputs, linesRevision: state.linesRevision, clockText: clockText,
                            meterLevel: inputs.layout.header.meter != nil ? obs.micLevel ?? 0 : nil,
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
        lastPlaced.map { RowFrames.animationFrames($0, now: now) != lastAnimationFrames } ?? false
    }

    private func redrawStableLayer(_ inputs: StableInputs) {
        stable.draw(inputs, engine: engine, images: images, clock: clock)
        commentAreaScrolls = stable.isUniform(in: layout.comments)
        lastWork.stableRedrawn = true
        lastPlaced = nil
    }

    /// The frame from nothing: the stable layer, every row, the clock and the meter.
    private func compose(_ frame: FrameBuffer, stablePixels: UnsafeMutableRawPointer, rows placed: [PlacedRow],
                         animation: [Int], visuals: [String: RowVisual], content: FrameContent) -> [PixelRect] {
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: damage.bounds)
        RowFrames.blend(placed[...], into: frame, area: rowsArea, visuals: visuals)
        lastWork.linesBlended += placed.count
        blendPinStrip(into: frame)
        _ = RowFrames.redrawAnimated(placed, frames: animation, visuals: visuals, in: frame, area: rowsArea, stable: nil,
                                     stableStride: 0)
        drawClock(content.clockText, in: frame)
        drawMeter(content.meterLevel, in: frame)
        lastWork.kind = .composed
        return [damage.bounds]
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
        let stableStride = stable.image.stride
        if let scroll {
            let written = RowFrames.scrollArea(frame, base: base, stable: stablePixels, stableStride: stableStride,
                                               plan: scroll, in: rewrite, area: area)
            (lastWork.rowsScrolled, lastWork.bytesScrolled) = written
            let newRows = placed.prefix(scroll.newRows)
            RowFrames.blend(newRows, into: frame, area: area, visuals: looks.now)
            lastWork.linesBlended += newRows.count
            if !rowsChanged.isEmpty { changed.append(rowsChanged) }
        }
        let restyled = looks.now.isEmpty && looks.before.isEmpty ? []
            : RowFrames.redrawMoving(placed, skipping: scroll?.newRows ?? 0, visuals: looks.now, before: looks.before,
                                     in: frame, area: area, stable: stablePixels, stableStride: stableStride)
        changed += restyled
        changed += redrawClockAndMeter(changes, content: content, in: frame, stablePixels: stablePixels)
        if scroll != nil || animation != lastAnimationFrames || !restyled.isEmpty {
            changed += RowFrames.redrawAnimated(placed, frames: animation, visuals: looks.now, in: frame, area: area,
                                                stable: stablePixels, stableStride: stableStride)
        }
        lastWork.kind = scroll != nil ? .scrolled : .copied
        return changed
    }

    /// The comments that fit, newest first, stacked from the newest edge, with their images (those
    /// not cached are laid out, counted in `work`). Images of rows that no longer fit are dropped.
    /// `gone`: rows faded out (none older than one is shown).
    private func place(_ lines: [ChatLine], work: inout Work, gone: ((String) -> Bool)? = nil) -> [PlacedRow] {
        // The renderer's properties read once into locals: none is read again in the loop.
        let area = rowsArea
        guard area.width > 0, area.height > 0 else { return [] }
        let fromTop = layout.newest == .top
        let rowGap = layout.rowGap
        let maxLines = settings.maxLines
        let cache = lineImages
        var placed: [PlacedRow] = []
        var edge = fromTop ? area.y : area.maxY
        var linesUsed = 0
        var kept: [String: LineImage] = [:]
        kept.reserveCapacity(cache.count + 1)
        for line in lines.reversed() {
            if let gone, gone(line.id) { break }
            let image: LineImage
            if let cached = cache[line.id], cached.line == line, !arrived(cached.pendingURLs) {
                image = cached
            } else {
                image = LineImage(line: line, style: textStyle, engine: engine, emotes: emotes, viewers: viewerColors)
                work.linesLaidOut += 1
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

    // MARK: The ticker (issue 38)

    /// The line the comments travel along: from right of the header's items to the bar's right end.
    var laneRect: PixelRect {
        let area = layout.comments
        let left = min(max(area.x, stable.laneStart), area.maxX)
        return PixelRect(x: left, y: 0, width: area.maxX - left, height: height)
    }

    var laneWidth: Int { max(laneRect.width, 1) }

    private func renderTicker(_ state: BarState, content: FrameContent, now: Double, into pool: any FramePool) -> Bool {
        guard let ticker else { return false }
        let changes = FrameChanges(from: lastShown, to: content, stableLayer: stable.drawn)
        if changes.lines {
            ticker.update(state.lines, now: now, laneWidth: laneWidth) { line in
                if let cached = lineImages.removeValue(forKey: line.id), cached.line == line { return cached }
                lastWork.linesLaidOut += 1
                return LineImage(line: line, style: textStyle, engine: engine, emotes: emotes, viewers: viewerColors)
            }
            // Images laid out ahead for rows the line has now taken or left out.
            lineImages = lineImages.filter { !ticker.hasSeen($0.key) }
        }
        var lane = laneRect
        var placed = ticker.placed(now: now, left: lane.x, right: lane.maxX)
        let laneMoved = lastLane != placed
        guard changes.stable || changes.clock || changes.meter || laneMoved || lastLane == nil else { return false }

        let frame = pool.backBuffer()
        let slot = pool.backSlot
        guard frame.width == width, frame.height == height else { return false }
        if damage.use(pool: ObjectIdentifier(pool)) { lastLane = nil }
        if changes.stable {
            redrawStableLayer(content.stable)
            lastLane = nil
            if laneRect != lane {
                lane = laneRect
                placed = ticker.placed(now: now, left: lane.x, right: lane.maxX)
            }
        }
        guard let stablePixels = stable.image.data() else { return false }
        var changed: [PixelRect] = []
        if lastLane != nil, let base = pool.lastPublished() {
            lastWork.bytesCaughtUp = RowFrames.catchUp(frame, missing: damage.missing(in: slot), from: base,
                                                       except: laneMoved ? lane : nil)
            if laneMoved {
                changed.append(restore(lane, in: frame, from: stablePixels))
                TickerLane.paint(placed, in: lane, barHeight: height, on: frame)
                lastWork.linesBlended += placed.count
            }
            changed += redrawClockAndMeter(changes, content: content, in: frame, stablePixels: stablePixels)
            lastWork.kind = .copied
        } else {
            damage.forgetRows()
            copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                     destinationStride: frame.stride, rect: damage.bounds)
            TickerLane.paint(placed, in: lane, barHeight: height, on: frame)
            lastWork.linesBlended += placed.count
            drawClock(content.clockText, in: frame)
            drawMeter(content.meterLevel, in: frame)
            changed = [damage.bounds]
            lastWork.kind = .composed
        }
        pool.publish()
        damage.published(slot: slot, changed: changed)
        lastShown = content
        lastLane = placed
        lastPlaced = []
        moving = ticker.isMoving
        return true
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

    /// The clock and the meter drawn again on the stable layer when they changed; returns where.
    private func redrawClockAndMeter(_ changes: FrameChanges, content: FrameContent, in frame: FrameBuffer,
                                     stablePixels: UnsafeMutableRawPointer) -> [PixelRect] {
        var changed: [PixelRect] = []
        if changes.clock {
            changed.append(restore(stable.clockRect, in: frame, from: stablePixels))
            drawClock(content.clockText, in: frame)
        }
        if changes.meter, let meter = stable.meterRect {
            changed.append(restore(meter, in: frame, from: stablePixels))
            drawMeter(content.meterLevel, in: frame)
        }
        return changed
    }

    private func drawClock(_ text: String, in frame: FrameBuffer) {
        let rect = stable.clockRect
        guard let clock, !text.isEmpty, !rect.isEmpty else { return }
        // The idle clock is dimmed: it must never read as a running one.
        let alpha = text == BarState.idleClockText ? 0.4 : 1
        withCairo(on: frame) { cr in clock.draw(text, on: cr, x: rect.x, y: rect.y, alpha: alpha) }
    }

    private func drawMeter(_ level: Int?, in frame: FrameBuffer) {
        guard let level, let rect = stable.meterRect else { return }
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
                               color: RGBA(obsABGR: settings.textColor), look: RowLook.header(settings))
    }

    private static func makeClock(settings: BarSettings, layout: BarLayout, engine: TextEngine) -> ClockFace? {
        clockStyle(settings: settings, layout: layout).map { ClockFace(engine: engine, style: $0) }
    }
}
