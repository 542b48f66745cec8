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
    private var clock: ClockFace?
    private var stable: StableLayer
    private var lineImages: [String: LineImage] = [:]

    /// A comment row as placed in the last published frame.
    private struct Placed {
        let image: LineImage
        let y: Int
    }

    // What the last published frame shows, to know what changed.
    private var lastStable: StableInputs?
    private var lastLines: [ChatLine]?
    private var lastClock: String?
    private var lastMeter: Int?
    /// Rows of the last frame, newest first; nil when the next frame must be composed from nothing.
    private var lastPlaced: [Placed]?
    /// Whether the stable layer is the same on every row of the comment area,
    /// so that scrolling rows gives the same pixels as drawing them again.
    private var commentAreaScrolls = false

    // Damage tracking. A pool slot keeps the frame the renderer last wrote into it,
    // so the back buffer needs only what changed in the frames published since.
    private var pool: ObjectIdentifier?
    private var framesPublished = 0
    /// The frame number each slot holds.
    private var slotHolds: [Int: Int] = [:]
    /// What each recent frame changed, oldest first.
    private var damageLog: [(frame: Int, rects: [PixelRect])] = []
    private static let damageLogDepth = 8

    /// What the last `render` did, for benchmarks and tests.
    public struct Work: Equatable, Sendable {
        public enum Kind: Sendable { case none, composed, scrolled, copied }
        public var kind = Kind.none
        public var stableRedrawn = false
        public var linesLaidOut = 0
        public var linesBlended = 0
        /// Bytes copied to bring the back buffer up to the last frame.
        public var bytesCaughtUp = 0
    }
    public private(set) var lastWork = Work()
    /// The problem the header shows (an image that cannot be used).
    var notice: String? { lastStable?.notice }

    /// `remoteImages`: where fetched `https://` images arrive (nil: they are never shown).
    public init(settings: BarSettings, width: Int, height: Int, remoteImages: RemoteImageStore? = nil,
                emotes: EmoteImages? = nil) {
        self.settings = settings.clamped()
        images = ImageCache(remote: remoteImages)
        self.emotes = emotes
        self.width = width
        self.height = height
        layout = BarLayout(settings: self.settings, width: width, height: height)
        stable = StableLayer(width: width, height: height)
        clock = Self.makeClock(settings: self.settings, layout: layout, engine: engine)
    }

    /// New settings take effect in the next frame; only what they touch is drawn again.
    public func update(settings newSettings: BarSettings) {
        let newSettings = newSettings.clamped()
        guard newSettings != settings else { return }
        let textChanged = newSettings.font != settings.font || newSettings.textColor != settings.textColor
            || newSettings.maxLines != settings.maxLines || newSettings.showAvatar != settings.showAvatar
            || newSettings.showBadges != settings.showBadges || newSettings.animateEmotes != settings.animateEmotes
        let clockChanged = textChanged || newSettings.showClock != settings.showClock
        settings = newSettings
        layout = BarLayout(settings: settings, width: width, height: height)
        if textChanged { lineImages.removeAll() }
        if clockChanged { clock = Self.makeClock(settings: settings, layout: layout, engine: engine) }
        images.forgetFailures()
        lastPlaced = nil
    }

    /// Drops every cache: the next frame is drawn from nothing (a full redraw).
    public func invalidateCaches() {
        lineImages.removeAll()
        clock = Self.makeClock(settings: settings, layout: layout, engine: engine)
        lastStable = nil
        lastLines = nil
        lastClock = nil
        lastMeter = nil
        lastPlaced = nil
    }

    /// Draws the frame for `state` at unix time `now` into the pool's back buffer
    /// and publishes it. Returns false, having drawn nothing, when the frame would
    /// look the same as the last one.
    @discardableResult
    public func render(_ state: BarState, obs: OBSLiveState = OBSLiveState(), now: Double,
                       into pool: any FramePool) -> Bool {
        lastWork = Work()
        let reading = BroadcastReading.resolve(settings.clockSource, feedStart: state.streamStart,
                                               feedStatus: state.status, obs: obs)
        let clockText = settings.showClock && !reading.clockHidden
            ? BarState.elapsedText(since: reading.start, now: now) : ""
        let meterLevel = settings.micMeter && settings.showMic ? obs.micLevel ?? 0 : nil
        var inputs = StableInputs(
            settings: settings, layout: layout, viewers: state.viewers, giftsTotal: state.giftsTotal,
            mic: MicState.resolve(obs: obs.mic, feed: state.micOn), onAir: reading.onAir,
            clockHourDigits: max(2, clockText.split(separator: ":").first?.count ?? 2),
            showsMeter: meterLevel != nil,
            // The streamer's own files win over what a feed names.
            avatar: settings.avatarPath.isEmpty ? state.avatar : .file(path: settings.avatarPath),
            background: settings.backgroundPath.isEmpty ? state.background : .file(path: settings.backgroundPath),
            status: state.status, relayStatus: state.relayStatus,
            remoteImagesRevision: images.remote?.revision ?? 0, notice: nil)
        // Images are decoded once and then looked up, so this costs two lookups a frame.
        if let problem = StableLayer.preload(inputs, images: images) {
            inputs.notice = inputs.notice ?? problem
        }
        let stableChanged = inputs != lastStable
        let linesChanged = lastLines.map { $0 != state.lines } ?? true
        // A picture a shown row waits for has arrived (or failed): that row is laid out again.
        if let revision = emotes?.revision, revision != lastEmoteRevision {
            lastEmoteRevision = revision
            if lastPlaced?.contains(where: { !$0.image.pendingURLs.isEmpty }) == true { lastPlaced = nil }
        }
        let animationMoved = lastPlaced.map { animationFrames($0, now: now) != lastAnimationFrames } ?? false
        guard stableChanged || linesChanged || clockText != lastClock || meterLevel != lastMeter || lastPlaced == nil
            || animationMoved
        else { return false }

        let frame = pool.backBuffer()
        let slot = pool.backSlot
        guard frame.width == width, frame.height == height else { return false }
        if self.pool != ObjectIdentifier(pool) {
            // Another pool: nothing in it is known.
            self.pool = ObjectIdentifier(pool)
            slotHolds.removeAll()
            damageLog.removeAll()
            lastPlaced = nil
        }
        if stableChanged {
            stable.draw(inputs, engine: engine, images: images, clock: clock)
            commentAreaScrolls = stable.isUniform(in: layout.comments)
            lastStable = inputs
            lastWork.stableRedrawn = true
            lastPlaced = nil
        }
        let placed = linesChanged || lastPlaced == nil ? place(state.lines) : (lastPlaced ?? [])
        guard let stablePixels = stable.image.data() else { return false }

        let full = PixelRect(x: 0, y: 0, width: width, height: height)
        var damage: [PixelRect] = []
        if let previous = lastPlaced, let base = pool.lastPublished(), let scroll = scrollPlan(from: previous, to: placed) {
            // Built on the last frame: the slot catches up with it where it is behind,
            // the comment area scrolls if its rows changed, the clock is redrawn if it moved.
            let area = layout.comments
            let rowsChanged = scroll.distance != 0 || scroll.newRows != 0 || previous.count != placed.count
            catchUp(frame, slot: slot, from: base, except: rowsChanged ? area : nil)
            if rowsChanged {
                scrollArea(frame, base: base, stablePixels: stablePixels, by: scroll.distance, keptTop: scroll.keptTop)
                blend(placed.prefix(scroll.newRows), into: frame)
                damage.append(area)
            }
            if clockText != lastClock {
                redrawClock(clockText, in: frame, stablePixels: stablePixels)
                damage.append(stable.clockRect.clamped(width: width, height: height))
            }
            if meterLevel != lastMeter {
                redrawMeter(meterLevel, in: frame, stablePixels: stablePixels)
                damage.append(stable.meterRect.clamped(width: width, height: height))
            }
            let frames = animationFrames(placed, now: now)
            if rowsChanged || frames != lastAnimationFrames {
                damage += redrawAnimated(placed, frames: frames, in: frame, stablePixels: stablePixels)
            }
            lastWork.kind = rowsChanged ? .scrolled : .copied
        } else {
            copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                     destinationStride: frame.stride, rect: full)
            blend(placed[...], into: frame)
            _ = redrawAnimated(placed, frames: animationFrames(placed, now: now), in: frame, stablePixels: nil)
            drawClock(clockText, in: frame)
            drawMeter(meterLevel, in: frame)
            damage = [full]
            lastWork.kind = .composed
        }
        pool.publish()
        framesPublished += 1
        slotHolds[slot] = framesPublished
        damageLog.append((framesPublished, damage))
        if damageLog.count > Self.damageLogDepth { damageLog.removeFirst(damageLog.count - Self.damageLogDepth) }
        lastPlaced = placed
        lastLines = state.lines
        lastClock = clockText
        lastMeter = meterLevel
        lastAnimationFrames = animationFrames(placed, now: now)
        return true
    }

    /// The comments that fit, newest first and at the bottom, with their images.
    private func place(_ lines: [ChatLine]) -> [Placed] {
        let area = layout.comments
        guard area.width > 0, area.height > 0 else { return [] }
        let style = LineImage.Style(
            family: settings.font.face, size: layout.textSize, bold: settings.font.bold, italic: settings.font.italic,
            textColor: RGBA(obsABGR: settings.textColor), width: area.width,
            maxLinesPerComment: min(3, settings.maxLines), showBadges: settings.showBadges,
            animateEmotes: settings.animateEmotes)
        var placed: [Placed] = []
        var bottom = area.maxY
        var linesUsed = 0
        var kept: [String: LineImage] = [:]
        for line in lines.reversed() {
            let image: LineImage
            if let cached = lineImages[line.id], cached.line == line, !arrived(cached.pendingURLs) {
                image = cached
            } else {
                image = LineImage(line: line, style: style, engine: engine, emotes: emotes)
                lastWork.linesLaidOut += 1
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

    /// How to get from the last frame's rows to these by scrolling: the rows kept
    /// must be the same images, all moved up by one distance, with only new rows
    /// below them. Nil when the frame must be composed instead.
    private func scrollPlan(from previous: [Placed], to placed: [Placed])
        -> (distance: Int, newRows: Int, keptTop: Int)?
    {
        guard commentAreaScrolls, placed.allSatisfy({ $0.y >= layout.comments.y }) else { return nil }
        guard let firstKept = previous.first,
              let newRows = placed.firstIndex(where: { $0.image === firstKept.image })
        else {
            // Nothing kept: only possible without a scroll if both are empty.
            return previous.isEmpty && placed.isEmpty ? (0, 0, layout.comments.maxY) : nil
        }
        let distance = firstKept.y - placed[newRows].y
        guard distance >= 0 else { return nil }
        for (offset, row) in placed[newRows...].enumerated() {
            guard offset < previous.count, previous[offset].image === row.image,
                  previous[offset].y - distance == row.y else { return nil }
        }
        return (distance, newRows, placed.last?.y ?? layout.comments.maxY)
    }

    /// Copies from the last frame into `frame` what changed since the frame this
    /// slot holds (everything, if that is not known), except `skipped`, which the
    /// caller writes anew.
    private func catchUp(_ frame: FrameBuffer, slot: Int, from base: FrameBuffer, except skipped: PixelRect?) {
        var rects: Set<PixelRect> = []
        if let held = slotHolds[slot], let oldest = damageLog.first, held >= oldest.frame - 1 {
            for entry in damageLog where entry.frame > held { rects.formUnion(entry.rects) }
        } else {
            rects = [PixelRect(x: 0, y: 0, width: width, height: height)]
        }
        rects.remove(skipped ?? PixelRect(x: 0, y: 0, width: 0, height: 0))
        for rect in rects {
            copyRows(from: base.pixels, sourceStride: base.stride, to: frame.pixels, destinationStride: frame.stride,
                     rect: rect)
        }
        lastWork.bytesCaughtUp = rects.reduce(0) { $0 + $1.width * $1.height * 4 }
    }

    /// Writes the comment area from the last frame's rows moved up by `distance`;
    /// rows above the top kept comment and rows left empty at the bottom come from the stable layer.
    private func scrollArea(_ frame: FrameBuffer, base: FrameBuffer, stablePixels: UnsafeMutableRawPointer,
                            by distance: Int, keptTop: Int) {
        let area = layout.comments
        let stableStride = stable.image.stride
        let rowBytes = area.width * 4
        for row in area.y..<area.maxY {
            let source: UnsafeRawPointer =
                row < keptTop || row + distance >= area.maxY
                ? UnsafeRawPointer(stablePixels + row * stableStride + area.x * 4)
                : UnsafeRawPointer(base.pixels + (row + distance) * base.stride + area.x * 4)
            (frame.pixels + row * frame.stride + area.x * 4).copyMemory(from: source, byteCount: rowBytes)
        }
    }

    private func blend(_ rows: ArraySlice<Placed>, into frame: FrameBuffer) {
        guard !rows.isEmpty else { return }
        let area = layout.comments
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

    /// Whether a picture among `urls` (loading when a row was laid out) is no longer loading.
    private func arrived(_ urls: [String]) -> Bool {
        guard let emotes, !urls.isEmpty else { return false }
        return urls.contains { url in
            if case .loading? = emotes.state(of: url) { return false }
            return true
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
        let area = layout.comments
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
        guard let level else { return }
        let rect = stable.meterRect
        withCairo(on: frame) { cr in
            Icons.levelMeter(cr, rect: rect, level: level, steps: OBSLiveState.MicLevel.steps)
        }
    }

    /// Puts the stable layer back under the meter, then draws the new level: a level
    /// change touches only the meter's rectangle.
    private func redrawMeter(_ level: Int?, in frame: FrameBuffer, stablePixels: UnsafeMutableRawPointer) {
        let rect = stable.meterRect.clamped(width: width, height: height)
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: rect)
        drawMeter(level, in: frame)
    }

    /// Puts the stable layer back under the old clock, then draws the new one.
    private func redrawClock(_ text: String, in frame: FrameBuffer, stablePixels: UnsafeMutableRawPointer) {
        let rect = stable.clockRect.clamped(width: width, height: height)
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: rect)
        drawClock(text, in: frame)
    }

    private static func makeClock(settings: BarSettings, layout: BarLayout, engine: TextEngine) -> ClockFace? {
        guard settings.showClock else { return nil }
        return ClockFace(engine: engine, family: settings.font.face, size: layout.headerSize,
                         color: RGBA(obsABGR: settings.textColor))
    }
}
