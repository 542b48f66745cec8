// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CommentBarCore

/// What the renderer and its comment area (`CommentArea`) share while they draw: the text engine
/// and pictures, the look the settings give now, the stable layer with the header's clock and
/// meter, what each pool slot lacks (`DamageTracker`) and what the frame did (`work`). One per
/// `BarRenderer`; the renderer changes the look, the area reads it.
final class AreaKit {
    let width: Int
    let height: Int
    let engine = TextEngine()
    let images: ImageCache
    /// Emote pictures as they arrive (nil: emotes show as their text).
    let emotes: EmoteImages?
    /// The colour each viewer's name was given, so every row of a viewer has the same.
    let viewerColors = ViewerColors()
    let stable: StableLayer
    private(set) var settings: BarSettings
    /// The layout frames are drawn with now (a chat box's, with or without its status row).
    var layout: BarLayout
    /// What the comment rows' images depend on: they are laid out again only when it changes.
    var textStyle: TextStyle
    var clock: ClockFace?
    /// What each pool slot lacks of the last frame.
    var damage: DamageTracker
    /// What the frame being drawn did (`BarRenderer.lastWork`).
    var work = BarRenderer.Work()

    init(settings: BarSettings, width: Int, height: Int, images: ImageCache, emotes: EmoteImages?) {
        self.width = width
        self.height = height
        self.images = images
        self.emotes = emotes
        self.settings = settings
        layout = BarLayout(settings: settings, width: width, height: height)
        textStyle = TextStyle(settings: settings, layout: layout)
        stable = StableLayer(width: width, height: height)
        damage = DamageTracker(width: width, height: height)
        clock = nil
        clock = makeClock()
    }

    /// New settings: the layout they give; returns whether the rows' text style changed.
    func use(_ newSettings: BarSettings) -> Bool {
        settings = newSettings
        layout = BarLayout(settings: settings, width: width, height: height)
        let newTextStyle = TextStyle(settings: settings, layout: layout)
        defer { textStyle = newTextStyle }
        if clockStyle() != clock?.style { clock = makeClock() }
        return newTextStyle != textStyle
    }

    /// The pool's back buffer and its slot, and whether the pool is another than before (nothing
    /// in it is known: the frame is drawn from nothing); nil when its frames are of another size.
    func backBuffer(of pool: any FramePool) -> (frame: FrameBuffer, slot: Int, newPool: Bool)? {
        let frame = pool.backBuffer()
        guard frame.width == width, frame.height == height else { return nil }
        return (frame, pool.backSlot, damage.use(pool: ObjectIdentifier(pool)))
    }

    /// A comment laid out and drawn once, in the rows' style.
    func lineImage(_ line: ChatLine) -> LineImage {
        work.linesLaidOut += 1
        return LineImage(line: line, style: textStyle, engine: engine, emotes: emotes, viewers: viewerColors)
    }

    /// Whether a picture among `urls` (loading or not yet asked for when a row was laid out)
    /// has arrived or failed.
    func arrived(_ urls: [String]) -> Bool {
        guard let emotes, !urls.isEmpty else { return false }
        return urls.contains { url in
            switch emotes.state(of: url) {
            case .ready?, .failed?: return true
            case .loading?, nil: return false
            }
        }
    }

    func redrawStableLayer(_ inputs: StableInputs) {
        stable.draw(inputs, engine: engine, images: images, clock: clock)
        work.stableRedrawn = true
    }

    /// The stable layer copied whole: the start of a frame drawn from nothing (the clock and the
    /// meter come last, `drawClockAndMeter`). Returns where it wrote (the whole frame).
    func composeStable(_ frame: FrameBuffer, stablePixels: UnsafeMutableRawPointer) -> PixelRect {
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: damage.bounds)
        return damage.bounds
    }

    /// The clock and the meter drawn again on the stable layer when they changed; returns where.
    func redrawClockAndMeter(_ changes: FrameChanges, content: FrameContent, in frame: FrameBuffer,
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

    /// The clock and the meter of a frame drawn from nothing.
    func drawClockAndMeter(_ content: FrameContent, in frame: FrameBuffer) {
        drawClock(content.clockText, in: frame)
        drawMeter(content.meterLevel, in: frame)
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
    func restore(_ rect: PixelRect, in frame: FrameBuffer, from stablePixels: UnsafeMutableRawPointer) -> PixelRect {
        let rect = rect.clamped(width: width, height: height)
        copyRows(from: stablePixels, sourceStride: stable.image.stride, to: frame.pixels,
                 destinationStride: frame.stride, rect: rect)
        return rect
    }

    /// Drops the clock's glyphs (a full redraw makes them again).
    func renewClock() {
        clock = makeClock()
    }

    private func clockStyle() -> ClockFace.Style? {
        guard settings.showClock else { return nil }
        return ClockFace.Style(family: settings.font.face, size: layout.header.textSize,
                               color: RGBA(obsABGR: settings.textColor), look: RowLook.header(settings))
    }

    private func makeClock() -> ClockFace? {
        clockStyle().map { ClockFace(engine: engine, style: $0) }
    }
}
