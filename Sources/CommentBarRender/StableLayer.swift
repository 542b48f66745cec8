import CCairo
import CPangoCairo
import CommentBarCore

/// What the stable layer shows. It is drawn again only when one of these changes.
struct StableInputs: Equatable {
    var settings: BarSettings
    var layout: BarLayout
    var viewers: Int?
    var giftsTotal: Int
    var micOn: Bool
    var avatar: ImageReference?
    var background: ImageReference?
    var status: FeedStatus
    var relayStatus: FeedStatus?
    /// Moves when a remote image arrives, so the layer is drawn again with it.
    var remoteImagesRevision: UInt64
    /// A problem to show in the header (a bad setting, an unreadable avatar).
    var notice: String?
}

/// The seeds' stable layer: background, avatar and its background, icons, mic
/// state, counters and status, cached in one image of the whole bar.
final class StableLayer {
    let image: ImageSurface
    /// Where the clock goes (top-left), and how wide it may be.
    private(set) var clockRect = PixelRect(x: 0, y: 0, width: 0, height: 0)

    init(width: Int, height: Int) {
        image = ImageSurface(width: width, height: height)
    }

    func draw(_ inputs: StableInputs, engine: TextEngine, images: ImageCache, clock: ClockFace?) {
        let settings = inputs.settings
        let layout = inputs.layout
        image.withContext { cr in
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)

            RGBA(obsABGR: settings.backgroundColor).with(alpha: Double(settings.backgroundOpacity) / 100).setSource(cr)
            Icons.roundedRect(cr, 0, 0, Double(layout.width), Double(layout.height), Double(layout.cornerRadius))
            cairo_fill(cr)

            if let panel = layout.avatarPanel {
                drawAvatarPanel(cr, panel: panel, inputs: inputs, images: images)
            }
            drawHeader(cr, inputs: inputs, engine: engine, clock: clock)
        }
    }

    /// Whether every pixel of `rect` is the same, so rows there can be moved
    /// without changing what is under them. Checked once per stable redraw.
    func isUniform(in rect: PixelRect) -> Bool {
        let rect = rect.clamped(width: image.width, height: image.height)
        guard !rect.isEmpty, let pixels = image.data() else { return false }
        let stride = image.stride
        let first = pixels.load(fromByteOffset: rect.y * stride + rect.x * 4, as: UInt32.self)
        for row in rect.y..<rect.maxY {
            let line = (pixels + row * stride + rect.x * 4).assumingMemoryBound(to: UInt32.self)
            for column in 0..<rect.width where line[column] != first { return false }
        }
        return true
    }

    private func drawAvatarPanel(_ cr: OpaquePointer, panel: PixelRect, inputs: StableInputs, images: ImageCache) {
        let x = Double(panel.x), y = Double(panel.y), w = Double(panel.width), h = Double(panel.height)
        let radius = Double(inputs.layout.padding)
        cairo_save(cr)
        Icons.roundedRect(cr, x, y, w, h, radius)
        cairo_clip(cr)
        if let source = inputs.background, let background = images.image(source, coverSide: max(panel.width, panel.height)) {
            Self.paintCover(cr, background, x: x, y: y, width: w, height: h)
        } else {
            Icons.defaultBackground(cr, x: x, y: y, width: w, height: h)
        }
        cairo_restore(cr)

        let avatarRadius = Self.avatarRadius(panel)
        let cx = x + w / 2, cy = y + h / 2
        // A white ring sets the avatar off its background.
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_arc(cr, cx, cy, avatarRadius + max(2, avatarRadius * 0.06), 0, 2 * Double.pi)
        cairo_fill(cr)
        if let source = inputs.avatar, let avatar = images.image(source, coverSide: Int(avatarRadius * 2)) {
            cairo_save(cr)
            cairo_arc(cr, cx, cy, avatarRadius, 0, 2 * Double.pi)
            cairo_clip(cr)
            Self.paintCover(cr, avatar, x: cx - avatarRadius, y: cy - avatarRadius,
                            width: avatarRadius * 2, height: avatarRadius * 2)
            cairo_restore(cr)
        } else {
            Icons.defaultAvatar(cr, centerX: cx, centerY: cy, radius: avatarRadius)
        }
        if inputs.settings.showMic {
            // The mic state as a badge on the avatar, as in a call.
            let badge = avatarRadius * 0.42
            let bx = cx + avatarRadius * 0.68, by = cy + avatarRadius * 0.68
            (inputs.micOn ? RGBA(0.18, 0.74, 0.42) : Palette.micOff).setSource(cr)
            cairo_arc(cr, bx, by, badge, 0, 2 * Double.pi)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
            cairo_set_line_width(cr, max(1.5, badge * 0.12))
            cairo_stroke(cr)
            Icons.microphone(cr, x: bx - badge * 0.65, y: by - badge * 0.65, size: badge * 1.3, on: inputs.micOn,
                             color: RGBA(1, 1, 1), offColor: RGBA(1, 1, 1))
        }
    }

    private func drawHeader(_ cr: OpaquePointer, inputs: StableInputs, engine: TextEngine, clock: ClockFace?) {
        let settings = inputs.settings
        let header = inputs.layout.header
        let size = inputs.layout.headerSize
        let textColor = RGBA(obsABGR: settings.textColor)
        let family = settings.font.face
        let centerY = Double(header.y) + Double(header.height) / 2
        let gap = Int((size * 0.6).rounded())
        var left = header.x
        var right = header.maxX

        // Status pill: LIVE when all is well, otherwise what the feed is doing.
        let (label, pillColor) = Self.statusPill(inputs.status)
        let boldFont = TextEngine.font(family: family, size: size * 0.8, bold: true)
        defer { pango_font_description_free(boldFont) }
        let pillText = engine.layout(label, font: boldFont)
        let pillHeight = Double(header.height) * 0.72
        let dot = inputs.status == .live ? pillHeight * 0.28 : 0
        let pillWidth = Double(pillText.width) + pillHeight * 0.7 + (dot > 0 ? dot + pillHeight * 0.2 : 0)
        pillColor.setSource(cr)
        Icons.roundedRect(cr, Double(left), centerY - pillHeight / 2, pillWidth, pillHeight, pillHeight / 2)
        cairo_fill(cr)
        var textX = Double(left) + pillHeight * 0.35
        if dot > 0 {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_arc(cr, textX + dot / 2, centerY, dot / 2, 0, 2 * Double.pi)
            cairo_fill(cr)
            textX += dot + pillHeight * 0.2
        }
        pillText.draw(cr, x: textX.rounded(), y: (centerY - Double(pillText.height) / 2).rounded(), color: RGBA(1, 1, 1))
        left += Int(pillWidth.rounded(.up)) + gap

        if settings.showClock, let clock {
            let width = clock.width(of: "00:00:00")
            clockRect = PixelRect(x: left, y: Int((centerY - Double(clock.height) / 2).rounded()),
                                  width: width, height: clock.height)
            left += width + gap
        } else {
            clockRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        }

        // Counters on the right, right to left: mic, gifts, viewers.
        let font = TextEngine.font(family: family, size: size, bold: true)
        defer { pango_font_description_free(font) }
        let icon = (size * 1.1).rounded()
        func counter(_ text: String, drawIcon: (Double) -> Void) {
            let number = engine.layout(text, font: font)
            right -= number.width
            number.draw(cr, x: Double(right), y: (centerY - Double(number.height) / 2).rounded(), color: textColor)
            right -= Int(icon) + Int(size * 0.25)
            drawIcon(Double(right))
            right -= gap
        }
        if settings.showMic && inputs.layout.avatarPanel == nil {
            right -= Int(icon)
            Icons.microphone(cr, x: Double(right), y: centerY - icon / 2, size: icon, on: inputs.micOn,
                             color: textColor, offColor: Palette.micOff)
            right -= gap
        }
        if settings.showGifts {
            counter(Self.grouped(inputs.giftsTotal)) { x in
                Icons.gift(cr, x: x, y: centerY - icon / 2, size: icon, color: RGBA(Palette.gift))
            }
        }
        if settings.showViewers {
            counter(inputs.viewers.map(Self.grouped) ?? "–") { x in
                Icons.viewers(cr, x: x, y: centerY - icon / 2, size: icon, color: textColor)
            }
        }

        // What is wrong, if anything, in the space left between.
        if let detail = Self.detail(inputs), right - left > Int(size * 2) {
            let detailFont = TextEngine.font(family: family, size: size * 0.8)
            defer { pango_font_description_free(detailFont) }
            let text = engine.layout(detail, font: detailFont).fitting(width: right - left)
            text.draw(cr, x: Double(left), y: (centerY - Double(text.height) / 2).rounded(), color: Palette.warning)
        }

        // A hairline under the header.
        cairo_set_source_rgba(cr, 1, 1, 1, 0.14)
        cairo_rectangle(cr, Double(header.x), Double(header.maxY), Double(header.width), 1)
        cairo_fill(cr)
    }

    static func avatarRadius(_ panel: PixelRect) -> Double { Double(min(panel.width, panel.height)) * 0.4 }

    /// Loads the images these inputs show, so a file that cannot be used is known
    /// (and shown as a notice) before the layer is drawn.
    static func preload(_ inputs: StableInputs, images: ImageCache) -> String? {
        guard let panel = inputs.layout.avatarPanel else { return nil }
        if let source = inputs.background { _ = images.image(source, coverSide: max(panel.width, panel.height)) }
        if let source = inputs.avatar { _ = images.image(source, coverSide: Int(avatarRadius(panel) * 2)) }
        return images.failure(for: [inputs.avatar, inputs.background])
    }

    static func statusPill(_ status: FeedStatus) -> (String, RGBA) {
        switch status {
        case .live: return ("LIVE", Palette.live)
        case .connecting: return ("CONNECTING", Palette.connecting)
        case .reconnecting: return ("RECONNECTING", Palette.reconnecting)
        case .error: return ("ERROR", Palette.error)
        case .paused: return ("PAUSED", Palette.connecting)
        case .waiting: return ("WAITING", Palette.connecting)
        case .ended: return ("ENDED", Palette.connecting)
        }
    }

    static func detail(_ inputs: StableInputs) -> String? {
        if inputs.status != .live, !inputs.status.detail.isEmpty { return inputs.status.detail }
        return inputs.relayStatus.map { "relay: \($0.label)" } ?? inputs.notice
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 && character.isNumber { out.append(",") }
            out.append(character)
        }
        return out
    }

    /// Paints an image scaled to cover the rectangle, centred.
    static func paintCover(_ cr: OpaquePointer, _ image: ImageSurface, x: Double, y: Double, width: Double,
                           height: Double) {
        let scale = max(width / Double(image.width), height / Double(image.height))
        cairo_save(cr)
        cairo_rectangle(cr, x, y, width, height)
        cairo_clip(cr)
        cairo_translate(cr, x + (width - Double(image.width) * scale) / 2, y + (height - Double(image.height) * scale) / 2)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
