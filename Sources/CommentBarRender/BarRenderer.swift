import CCairo
import CPangoCairo
import CommentBarCore

/// Turns bar states into frames, the way the seeds' fast path does:
/// - a stable layer (background, avatar, icons, counters, status) cached and
///   drawn again only when one of its inputs changes;
/// - each comment laid out and drawn once into its own image;
/// - the two composed into a content image when the comments change;
/// - a frame is the content image copied into the pool's buffer plus the clock,
///   drawn from glyphs made once.
/// When nothing visible changed, no frame is made at all.
///
/// Not thread-safe: one renderer belongs to one frame loop.
public final class BarRenderer {
    public private(set) var settings: BarSettings
    public let width: Int
    public let height: Int

    private let engine = TextEngine()
    private let images = ImageCache()
    private var layout: BarLayout
    private var clock: ClockFace?
    private var stable: StableLayer
    private let content: ImageSurface
    private var lineImages: [String: LineImage] = [:]

    // What the last frame showed, to know what changed.
    private var lastStable: StableInputs?
    private var lastLines: [ChatLine]?
    private var lastClock: String?
    private var contentIsCurrent = false

    /// Counters for benchmarks and tests: what the last `render` did.
    public struct Work: Equatable, Sendable {
        public var stableRedrawn = false
        public var linesLaidOut = 0
        public var contentComposed = false
        public var frameMade = false
    }
    public private(set) var lastWork = Work()

    public init(settings: BarSettings, width: Int, height: Int) {
        self.settings = settings.clamped()
        self.width = width
        self.height = height
        layout = BarLayout(settings: self.settings, width: width, height: height)
        stable = StableLayer(width: width, height: height)
        content = ImageSurface(width: width, height: height)
        clock = Self.makeClock(settings: self.settings, layout: layout, engine: engine)
    }

    /// New settings take effect in the next frame; only what they touch is redrawn.
    public func update(settings newSettings: BarSettings) {
        let newSettings = newSettings.clamped()
        guard newSettings != settings else { return }
        let textChanged = newSettings.font != settings.font || newSettings.textColor != settings.textColor
            || newSettings.maxLines != settings.maxLines || newSettings.showAvatar != settings.showAvatar
        settings = newSettings
        layout = BarLayout(settings: settings, width: width, height: height)
        if textChanged {
            lineImages.removeAll()
            clock = Self.makeClock(settings: settings, layout: layout, engine: engine)
            lastStable = nil
        }
        images.forgetFailures()
        contentIsCurrent = false
    }

    /// Drops every cache: the next frame is drawn from nothing (a full redraw).
    public func invalidateCaches() {
        lineImages.removeAll()
        clock = Self.makeClock(settings: settings, layout: layout, engine: engine)
        lastStable = nil
        lastLines = nil
        lastClock = nil
        contentIsCurrent = false
    }

    /// Draws the frame for `state` at unix time `now` into the pool's back buffer
    /// and publishes it. Returns false, having drawn nothing, when the frame would
    /// look the same as the last one.
    @discardableResult
    public func render(_ state: BarState, now: Double, into pool: any FramePool, notice: String? = nil) -> Bool {
        lastWork = Work()
        let clockText = settings.showClock ? BarState.elapsedText(since: state.streamStart, now: now) : ""
        var inputs = StableInputs(
            settings: settings, layout: layout, viewers: state.viewers, giftsTotal: state.giftsTotal,
            micOn: state.micOn,
            avatarPath: settings.avatarPath.isEmpty ? state.avatarPath : settings.avatarPath,
            backgroundPath: settings.backgroundPath.isEmpty ? state.backgroundPath : settings.backgroundPath,
            status: state.status, notice: notice)
        // Images are decoded once and then looked up, so this costs two lookups a frame.
        if let problem = StableLayer.preload(inputs, images: images) {
            inputs.notice = inputs.notice ?? problem
        }
        let stableChanged = inputs != lastStable
        let linesChanged = lastLines.map { $0 != state.lines } ?? true
        guard stableChanged || linesChanged || clockText != lastClock || !contentIsCurrent else { return false }

        if stableChanged {
            stable.draw(inputs, engine: engine, images: images, clock: clock)
            lastStable = inputs
            lastWork.stableRedrawn = true
        }
        if stableChanged || linesChanged || !contentIsCurrent {
            compose(lines: state.lines)
            lastLines = state.lines
            contentIsCurrent = true
            lastWork.contentComposed = true
        }
        let frame = pool.backBuffer()
        guard frame.width == width, frame.height == height, let source = content.data() else { return false }
        copyRows(from: source, sourceStride: content.stride, to: frame.pixels, destinationStride: frame.stride,
                 rect: PixelRect(x: 0, y: 0, width: width, height: height))
        if let clock, !clockText.isEmpty {
            let rect = stable.clockRect
            withCairo(on: frame) { cr in clock.draw(clockText, on: cr, x: rect.x, y: rect.y) }
        }
        pool.publish()
        lastClock = clockText
        lastWork.frameMade = true
        return true
    }

    /// Lays out the comments that fit, newest at the bottom, and composes them over the stable layer.
    private func compose(lines: [ChatLine]) {
        let area = layout.comments
        let style = LineImage.Style(
            family: settings.font.face, size: layout.textSize, textColor: RGBA(obsABGR: settings.textColor),
            width: area.width, maxLinesPerComment: min(3, settings.maxLines))
        var visible: [(image: LineImage, y: Int)] = []
        var bottom = area.maxY
        var linesUsed = 0
        var kept: [String: LineImage] = [:]
        for line in lines.reversed() where area.width > 0 && area.height > 0 {
            let image: LineImage
            if let cached = lineImages[line.id], cached.line == line {
                image = cached
            } else {
                image = LineImage(line: line, style: style, engine: engine)
                lastWork.linesLaidOut += 1
            }
            let top = bottom - image.height
            // The newest comment always shows (clipped if the bar is tiny); older ones only whole.
            if !visible.isEmpty && (top < area.y || linesUsed + image.lineCount > settings.maxLines) { break }
            visible.append((image, top))
            kept[line.id] = image
            linesUsed += image.lineCount
            bottom = top - layout.rowGap
        }
        lineImages = kept

        content.withContext { cr in
            // Cairo copies the stable layer (a plain blit), so it knows what the surface holds.
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cr, stable.image.surface, 0, 0)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            for (image, y) in visible {
                cairo_set_source_surface(cr, image.image.surface, Double(area.x), Double(y))
                cairo_paint(cr)
            }
        }
    }

    private static func makeClock(settings: BarSettings, layout: BarLayout, engine: TextEngine) -> ClockFace? {
        guard settings.showClock else { return nil }
        return ClockFace(engine: engine, family: settings.font.face, size: layout.headerSize,
                         color: RGBA(obsABGR: settings.textColor))
    }
}
