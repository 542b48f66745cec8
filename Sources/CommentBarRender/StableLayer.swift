// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CPangoCairo
import CommentBarCore
import Glibc

/// What the stable layer shows. It is drawn again only when one of these changes.
struct StableInputs: Equatable {
    var settings: BarSettings
    var layout: BarLayout
    var viewers: Int?
    /// Each stream's viewers beside its platform's icon (`viewers_mode` each, several streams);
    /// empty: the one count `viewers`.
    var streamViewers: [BarState.StreamViewers] = []
    var giftsTotal: Int
    var mic: MicState
    /// The on-air badge: OBS's streaming/recording (or the feed's live stream), never the chat link.
    var onAir: OnAirState
    /// How many hour digits the clock shows: its box grows past 99 hours.
    var clockHourDigits: Int
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
    /// What `image` shows (nil: nothing yet, or forgotten).
    private(set) var drawn: StableInputs?
    /// Where the clock goes, as wide as its widest text: it follows the on-air badge,
    /// whose width is measured when the layer is drawn.
    private(set) var clockRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// The avatar panel, drawn again only when its own inputs change (kept when the layer is forgotten).
    let avatarPanel = AvatarPanel()

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

            Self.barColor(settings).setSource(cr)
            Icons.roundedRect(cr, 0, 0, Double(layout.width), Double(layout.height), Double(layout.cornerRadius))
            cairo_fill(cr)

            if let panel = layout.avatarPanel {
                drawAvatarPanel(cr, panel: panel, inputs: inputs, images: images)
            }
            drawHeader(cr, inputs: inputs, engine: engine, clock: clock)
        }
        drawn = inputs
    }

    /// The layer must be drawn again before it is used.
    func forget() { drawn = nil }

    /// Whether every pixel of `rect` is the same, so rows there can be moved
    /// without changing what is under them. Checked once per stable redraw.
    func isUniform(in rect: PixelRect) -> Bool {
        let rect = rect.clamped(width: image.width, height: image.height)
        guard !rect.isEmpty, let pixels = image.data() else { return false }
        let stride = image.stride
        let top = pixels + rect.y * stride + rect.x * 4
        let first = top.load(as: UInt32.self)
        let line = top.assumingMemoryBound(to: UInt32.self)
        for column in 0..<rect.width where line[column] != first { return false }
        // The top row is one colour: every other row must equal it (memcmp, not a pixel loop).
        let rowBytes = rect.width * 4
        for row in rect.y + 1..<rect.maxY where memcmp(pixels + row * stride + rect.x * 4, top, rowBytes) != 0 {
            return false
        }
        return true
    }

    private func drawAvatarPanel(_ cr: OpaquePointer, panel: PixelRect, inputs: StableInputs, images: ImageCache) {
        let layout = inputs.layout
        let avatarRadius = Self.avatarRadius(panel)
        let background = inputs.background.flatMap { images.image($0, coverSide: max(panel.width, panel.height)) }
        let avatar = inputs.avatar.flatMap { images.image($0, coverSide: Int(avatarRadius * 2)) }
        avatarPanel.copy(AvatarPanel.Key(panel: panel, panelRadius: Double(layout.padding), barWidth: layout.width,
                                         barHeight: layout.height, barRadius: Double(layout.cornerRadius),
                                         barColor: Self.barColor(inputs.settings), background: background,
                                         avatar: avatar),
                         into: cr)
        let cx = Double(panel.x) + Double(panel.width) / 2, cy = Double(panel.y) + Double(panel.height) / 2
        if inputs.settings.showMic {
            // The mic state as a badge on the avatar, as in a call.
            let badge = avatarRadius * 0.42
            let bx = cx + avatarRadius * 0.68, by = cy + avatarRadius * 0.68
            Palette.micBadge(inputs.mic).setSource(cr)
            cairo_arc(cr, bx, by, badge, 0, 2 * Double.pi)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
            cairo_set_line_width(cr, max(1.5, badge * 0.12))
            cairo_stroke(cr)
            Icons.microphone(cr, x: bx - badge * 0.65, y: by - badge * 0.65, size: badge * 1.3,
                             on: inputs.mic == .on || inputs.mic == .unknown,
                             color: RGBA(1, 1, 1, inputs.mic == .unknown ? 0.6 : 1), offColor: RGBA(1, 1, 1))
        }
    }

    private func drawHeader(_ cr: OpaquePointer, inputs: StableInputs, engine: TextEngine, clock: ClockFace?) {
        let settings = inputs.settings
        let header = inputs.layout.header
        let textColor = RGBA(obsABGR: settings.textColor)
        let family = settings.font.face
        var flow = HeaderFlow(header)

        // The on-air badge: LIVE, REC or OFF AIR, from OBS (or the feed's live stream).
        let badgeFont = TextEngine.font(family: family, size: header.badgeTextSize, bold: true)
        defer { pango_font_description_free(badgeFont) }
        let badgeWidth = Self.drawOnAirBadge(cr, inputs.onAir, x: Double(flow.left), centerY: header.centerY,
                                             height: header.badgeHeight, font: badgeFont, engine: engine)
        _ = flow.fromLeft(width: Int(badgeWidth.rounded(.up)))

        if settings.showClock, settings.clockSource != .off, let clock {
            let width = clock.width(of: String(repeating: "0", count: inputs.clockHourDigits) + ":00:00")
            clockRect = header.centered(x: flow.fromLeft(width: width), width: width, height: clock.height)
        } else {
            clockRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        }

        // The chat connection, as a small outlined chip: it can never pass for the on-air badge.
        let chipFont = TextEngine.font(family: family, size: header.chipTextSize, bold: true)
        defer { pango_font_description_free(chipFont) }
        let chipWidth = Self.drawChatChip(cr, inputs.status, x: Double(flow.left), centerY: header.centerY,
                                          height: header.chipHeight, font: chipFont, engine: engine)
        _ = flow.fromLeft(width: Int(chipWidth.rounded(.up)))

        if let mic = header.micIcon {
            Icons.microphone(cr, x: mic.x, y: mic.y, size: mic.side,
                             on: inputs.mic == .on || inputs.mic == .unknown,
                             color: inputs.mic == .on ? textColor : Palette.micBadge(.unknown),
                             offColor: inputs.mic == .muted ? Palette.micOff : Palette.micBadge(.none))
        }
        // Counters on the right, right to left after the mic and the meter: gifts, viewers.
        let font = TextEngine.font(family: family, size: header.textSize, bold: true)
        defer { pango_font_description_free(font) }
        func counter(_ text: String, drawIcon: (HeaderLayout.Square) -> Void) {
            let number = engine.layout(text, font: font)
            let numberX = flow.fromRight(width: number.width, spacing: 0)
            number.draw(cr, x: Double(numberX), y: header.top(ofHeight: number.height), color: textColor)
            drawIcon(header.counterIcon(x: flow.fromRight(width: Int(header.iconSize) + header.iconGap)))
        }
        if settings.showGifts {
            counter(Self.grouped(inputs.giftsTotal)) { icon in
                Icons.gift(cr, x: icon.x, y: icon.y, size: icon.side, color: RGBA(Palette.gift))
            }
        }
        if settings.showViewers, !inputs.streamViewers.isEmpty {
            // One count per stream, each after its platform's icon, in the streams' order.
            for stream in inputs.streamViewers.reversed() {
                counter(stream.viewers.map(Self.grouped) ?? "–") { icon in
                    Icons.platform(cr, stream.badge, x: icon.x, y: icon.y, size: icon.side)
                }
            }
        } else if settings.showViewers {
            counter(inputs.viewers.map(Self.grouped) ?? "–") { icon in
                Icons.viewers(cr, x: icon.x, y: icon.y, size: icon.side, color: textColor)
            }
        }

        // What is wrong, if anything, in the space left between.
        if let detail = Self.detail(inputs), flow.room > header.detailMinWidth {
            let detailFont = TextEngine.font(family: family, size: header.detailTextSize)
            defer { pango_font_description_free(detailFont) }
            StatusLine.draw(cr, detail, engine: engine, font: detailFont, x: flow.left, width: flow.room,
                            centerY: header.centerY, color: Palette.warning)
        }

        // A hairline under the header.
        cairo_set_source_rgba(cr, 1, 1, 1, 0.14)
        cairo_rectangle(cr, Double(header.row.x), Double(header.row.maxY), Double(header.row.width), 1)
        cairo_fill(cr)
    }

    /// The bar's background colour with its opacity.
    static func barColor(_ settings: BarSettings) -> RGBA {
        RGBA(obsABGR: settings.backgroundColor).with(alpha: Double(settings.backgroundOpacity) / 100)
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

    /// Draws the on-air badge with its left edge at x; returns its width.
    static func drawOnAirBadge(_ cr: OpaquePointer, _ state: OnAirState, x: Double, centerY: Double, height: Double,
                               font: OpaquePointer, engine: TextEngine) -> Double {
        let label: String
        switch state {
        case .live: label = "LIVE"
        case .recording: label = "REC"
        case .offAir: label = "OFF AIR"
        }
        let text = engine.layout(label, font: font)
        let dot = state == .offAir ? 0 : height * 0.28
        let width = Double(text.width) + height * 0.7 + (dot > 0 ? dot + height * 0.2 : 0)
        let top = centerY - height / 2
        Icons.roundedRect(cr, x, top, width, height, height / 2)
        let textColor: RGBA
        switch state {
        case .live:
            Palette.live.setSource(cr)
            cairo_fill(cr)
            textColor = RGBA(1, 1, 1)
        case .recording:
            // Dark with a red dot: recording, but nobody is watching.
            RGBA(0.12, 0.12, 0.14, 0.95).setSource(cr)
            cairo_fill_preserve(cr)
            Palette.live.setSource(cr)
            cairo_set_line_width(cr, max(1.5, height * 0.07))
            cairo_stroke(cr)
            textColor = RGBA(1, 1, 1)
        case .offAir:
            // Outlined and grey: nothing on this badge may look like LIVE.
            Palette.offAir.with(alpha: 0.9).setSource(cr)
            cairo_set_line_width(cr, max(1.5, height * 0.07))
            cairo_stroke(cr)
            textColor = Palette.offAir
        }
        var textX = x + height * 0.35
        if dot > 0 {
            (state == .live ? RGBA(1, 1, 1) : Palette.live).setSource(cr)
            cairo_arc(cr, textX + dot / 2, centerY, dot / 2, 0, 2 * Double.pi)
            cairo_fill(cr)
            textX += dot + height * 0.2
        }
        text.draw(cr, x: textX.rounded(), y: (centerY - Double(text.height) / 2).rounded(), color: textColor)
        return width
    }

    /// Draws the chat connection chip (a dot and "chat", or "chat: reconnecting"); returns its width.
    static func drawChatChip(_ cr: OpaquePointer, _ status: FeedStatus, x: Double, centerY: Double, height: Double,
                             font: OpaquePointer, engine: TextEngine) -> Double {
        let (label, color) = chatChip(status)
        let text = engine.layout(label, font: font)
        let dot = height * 0.34
        let width = Double(text.width) + dot + height * 0.9
        Icons.roundedRect(cr, x, centerY - height / 2, width, height, height / 2)
        color.with(alpha: 0.8).setSource(cr)
        cairo_set_line_width(cr, max(1, height * 0.06))
        cairo_stroke(cr)
        color.setSource(cr)
        cairo_arc(cr, x + height * 0.35 + dot / 2, centerY, dot / 2, 0, 2 * Double.pi)
        cairo_fill(cr)
        text.draw(cr, x: (x + height * 0.55 + dot).rounded(), y: (centerY - Double(text.height) / 2).rounded(),
                  color: color)
        return width
    }

    /// The chat chip's text and colour for each connection state.
    static func chatChip(_ status: FeedStatus) -> (String, RGBA) {
        switch status {
        case .live: return ("chat", Palette.chatLive)
        case .connecting: return ("chat: connecting", Palette.connecting)
        case .reconnecting: return ("chat: reconnecting", Palette.reconnecting)
        case .error: return ("chat: error", Palette.error)
        case .paused: return ("chat: paused", Palette.connecting)
        case .waiting: return ("chat: waiting", Palette.connecting)
        case .ended: return ("chat: ended", Palette.connecting)
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
