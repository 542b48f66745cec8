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
    /// whose width is measured when the layer is drawn. Empty when it is not shown (or has no room).
    private(set) var clockRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Where the mic level meter goes; nil when it is off or has no room.
    private(set) var meterRect: PixelRect?
    /// The ticker's comments travel from the bar's right end to here (right of the header's items).
    private(set) var laneStart = 0
    /// Every item the layer drew, by name, for the test that no item is drawn over another.
    private(set) var elements: [(name: String, rect: PixelRect)] = []
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

            elements = []
            if let panel = layout.avatarPanel {
                drawAvatarPanel(cr, panel: panel, inputs: inputs, images: images)
                elements.append(("avatar panel", panel))
            }
            if let circle = layout.avatarCircle {
                drawAvatarCircle(cr, circle, inputs: inputs, images: images)
                elements.append(("avatar", circle))
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

    /// The chat box's avatar: the picture (or the default face) in a ring, the header's height.
    private func drawAvatarCircle(_ cr: OpaquePointer, _ circle: PixelRect, inputs: StableInputs, images: ImageCache) {
        let ring = max(1.5, Double(circle.width) * 0.05)
        let radius = Double(circle.width) / 2 - ring
        let cx = Double(circle.x) + Double(circle.width) / 2, cy = Double(circle.y) + Double(circle.height) / 2
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_arc(cr, cx, cy, radius + ring, 0, 2 * Double.pi)
        cairo_fill(cr)
        if let avatar = inputs.avatar.flatMap({ images.image($0, coverSide: Int(radius * 2)) }) {
            cairo_save(cr)
            cairo_arc(cr, cx, cy, radius, 0, 2 * Double.pi)
            cairo_clip(cr)
            Self.paintCover(cr, avatar, x: cx - radius, y: cy - radius, width: radius * 2, height: radius * 2)
            cairo_restore(cr)
        } else {
            Icons.defaultAvatar(cr, centerX: cx, centerY: cy, radius: radius)
        }
    }

    private func drawHeader(_ cr: OpaquePointer, inputs: StableInputs, engine: TextEngine, clock: ClockFace?) {
        let settings = inputs.settings
        let layout = inputs.layout
        let header = layout.header
        let textColor = RGBA(obsABGR: settings.textColor)
        let family = settings.font.face
        clockRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        meterRect = nil
        laneStart = layout.comments.x
        guard layout.headerShown else { return }
        let ticker = layout.kind == .ticker

        // Every item measured first: only what fits is drawn (HeaderPlan), never one over another.
        let badgeFont = TextEngine.font(family: family, size: header.badgeTextSize, bold: true)
        defer { pango_font_description_free(badgeFont) }
        let chipFont = TextEngine.font(family: family, size: header.chipTextSize, bold: true)
        defer { pango_font_description_free(chipFont) }
        let font = TextEngine.font(family: family, size: header.textSize, bold: true)
        defer { pango_font_description_free(font) }
        let showsOnAir = !ticker && !layout.statusOnly
        let badgeText = engine.layout(Self.onAirLabel(inputs.onAir), font: badgeFont)
        let badgeWidth = showsOnAir ? Self.onAirBadgeWidth(inputs.onAir, text: badgeText, height: header.badgeHeight) : 0
        let chipText = engine.layout(Self.chatChip(inputs.status).0, font: chipFont)
        let chipWidth = !ticker || inputs.status != .live ? Self.chatChipWidth(text: chipText, height: header.chipHeight) : 0
        var clockWidth = 0
        if settings.showClock, settings.clockSource != .off, let clock, !layout.statusOnly {
            clockWidth = clock.width(of: String(repeating: "0", count: inputs.clockHourDigits) + ":00:00")
        }
        // The counters: a number after its icon.
        var counters: [(item: HeaderPlan.Item, number: TextLayout, icon: (HeaderLayout.Square) -> Void)] = []
        if settings.showViewers, !layout.statusOnly {
            if inputs.streamViewers.isEmpty {
                counters.append((.viewers(0), engine.layout(inputs.viewers.map(Self.grouped) ?? "–", font: font), { icon in
                    Icons.viewers(cr, x: icon.x, y: icon.y, size: icon.side, color: textColor)
                }))
            } else {
                // One count per stream, each after its platform's icon, in the streams' order.
                for (index, stream) in inputs.streamViewers.enumerated() {
                    counters.append((.viewers(index), engine.layout(stream.viewers.map(Self.grouped) ?? "–", font: font),
                                     { icon in Icons.platform(cr, stream.badge, x: icon.x, y: icon.y, size: icon.side) }))
                }
            }
        }
        if settings.showGifts, !layout.statusOnly {
            counters.append((.gifts, engine.layout(Self.grouped(inputs.giftsTotal), font: font), { icon in
                Icons.gift(cr, x: icon.x, y: icon.y, size: icon.side, color: RGBA(Palette.gift))
            }))
        }
        // Numbers outlined like the rows (over a game), the outline inside their box.
        let look = RowLook.header(settings)
        func counterWidth(_ number: TextLayout) -> Int { Int(header.iconSize) + header.iconGap + number.width + 2 * look.margin }

        var entries: [HeaderPlan.Entry] = [
            .init(item: .onAir, width: Int(badgeWidth.rounded(.up)), priority: 100),
            .init(item: .clock, width: clockWidth, priority: 90),
            .init(item: .chip, width: Int(chipWidth.rounded(.up)), priority: inputs.status == .live ? 30 : 85),
        ]
        let micEntry = HeaderPlan.Entry(item: .mic, width: header.micIcon != nil ? Int(header.iconSize) : 0, priority: 70)
        let meterEntry = HeaderPlan.Entry(item: .meter, width: header.meter?.width ?? 0, priority: 50)
        let counterEntries = counters.map { counter -> HeaderPlan.Entry in
            let priority: Int
            switch counter.item {
            case .viewers(let index): priority = 80 - index
            default: priority = 60
            }
            return HeaderPlan.Entry(item: counter.item, width: counterWidth(counter.number), priority: priority)
        }
        let plan: HeaderPlan
        if ticker {
            // Left to right: the clock, the counters, the mic; the chat only when it is not live.
            let chip = entries.removeLast()
            entries.removeFirst()
            plan = HeaderPlan(entries + counterEntries + [micEntry, meterEntry, chip], leftItems: [], header: header,
                              allFromLeft: true, share: 0.5)
        } else {
            // From the right end inwards: the mic, the meter, the gifts, the viewers (the first stream leftmost).
            plan = HeaderPlan(entries + [micEntry, meterEntry] + counterEntries.reversed(),
                              leftItems: [.onAir, .clock, .chip], header: header)
        }

        func note(_ name: String, _ x: Int, _ width: Int, _ height: Double) {
            elements.append((name, header.centered(x: x, width: width, height: Int(height.rounded(.up)))))
        }
        if let x = plan.x(.onAir) {
            // The on-air badge: LIVE, REC or OFF AIR, from OBS (or the feed's live stream).
            _ = Self.drawOnAirBadge(cr, inputs.onAir, text: badgeText, x: Double(x), centerY: header.centerY,
                                    height: header.badgeHeight)
            note("on-air badge", x, Int(badgeWidth.rounded(.up)), header.badgeHeight)
        }
        if let x = plan.x(.clock), let clock {
            clockRect = header.centered(x: x, width: clockWidth, height: clock.height)
            elements.append(("clock", clockRect))
        }
        if let x = plan.x(.chip) {
            // The chat connection, as a small outlined chip: it can never pass for the on-air badge.
            _ = Self.drawChatChip(cr, inputs.status, text: chipText, x: Double(x), centerY: header.centerY,
                                  height: header.chipHeight)
            note("chat chip", x, Int(chipWidth.rounded(.up)), header.chipHeight)
        }
        if let x = plan.x(.mic) {
            let icon = header.counterIcon(x: x)
            Icons.microphone(cr, x: icon.x, y: icon.y, size: icon.side,
                             on: inputs.mic == .on || inputs.mic == .unknown,
                             color: inputs.mic == .on ? textColor : Palette.micBadge(.unknown),
                             offColor: inputs.mic == .muted ? Palette.micOff : Palette.micBadge(.none))
            note("mic", x, Int(header.iconSize), header.iconSize)
        }
        if let x = plan.x(.meter), let meter = header.meter {
            meterRect = PixelRect(x: x, y: meter.y, width: meter.width, height: meter.height)
            elements.append(("meter", PixelRect(x: x, y: meter.y, width: meter.width, height: meter.height)))
        }
        for counter in counters {
            guard let x = plan.x(counter.item) else { continue }
            counter.icon(header.counterIcon(x: x))
            let numberX = Double(x + Int(header.iconSize) + header.iconGap + look.margin)
            let numberY = header.top(ofHeight: counter.number.height)
            LineImage.drawOutline(counter.number, look: look, x: numberX, y: numberY, on: cr)
            counter.number.draw(cr, x: numberX, y: numberY, color: textColor)
            note("\(counter.item)", x, counterWidth(counter.number),
                 max(header.iconSize, Double(counter.number.height + 2 * look.margin)))
        }

        // What is wrong, if anything, in the space left between.
        var detailEnd = plan.room.left
        if let detail = Self.detail(inputs), plan.room.right - plan.room.left > header.detailMinWidth {
            let detailFont = TextEngine.font(family: family, size: header.detailTextSize)
            defer { pango_font_description_free(detailFont) }
            let width = plan.room.right - plan.room.left
            let shown = StatusLine.draw(cr, detail, engine: engine, font: detailFont, x: plan.room.left, width: width,
                                        centerY: header.centerY, color: Palette.warning)
            elements.append(("detail", shown))
            detailEnd = shown.maxX + header.gap
        }
        if ticker {
            laneStart = min(max(detailEnd, layout.comments.x), layout.comments.maxX)
        } else {
            // A hairline under the header.
            cairo_set_source_rgba(cr, 1, 1, 1, 0.14)
            cairo_rectangle(cr, Double(header.row.x), Double(header.row.maxY), Double(header.row.width), 1)
            cairo_fill(cr)
        }
    }

    /// The bar's background colour with its opacity.
    static func barColor(_ settings: BarSettings) -> RGBA {
        RGBA(obsABGR: settings.backgroundColor).with(alpha: Double(settings.backgroundOpacity) / 100)
    }

    static func avatarRadius(_ panel: PixelRect) -> Double { Double(min(panel.width, panel.height)) * 0.4 }

    /// Loads the images these inputs show, so a file that cannot be used is known
    /// (and shown as a notice) before the layer is drawn.
    static func preload(_ inputs: StableInputs, images: ImageCache) -> String? {
        if let circle = inputs.layout.avatarCircle, let source = inputs.avatar {
            let ring = max(1.5, Double(circle.width) * 0.05)
            _ = images.image(source, coverSide: Int(Double(circle.width) / 2 - ring) * 2)
            return images.failure(for: [inputs.avatar])
        }
        guard let panel = inputs.layout.avatarPanel else { return nil }
        if let source = inputs.background { _ = images.image(source, coverSide: max(panel.width, panel.height)) }
        if let source = inputs.avatar { _ = images.image(source, coverSide: Int(avatarRadius(panel) * 2)) }
        return images.failure(for: [inputs.avatar, inputs.background])
    }

    /// The on-air badge's width with its label laid out as `text`.
    static func onAirBadgeWidth(_ state: OnAirState, text: TextLayout, height: Double) -> Double {
        let dot = state == .offAir ? 0 : height * 0.28
        return Double(text.width) + height * 0.7 + (dot > 0 ? dot + height * 0.2 : 0)
    }

    static func onAirLabel(_ state: OnAirState) -> String {
        switch state {
        case .live: return "LIVE"
        case .recording: return "REC"
        case .offAir: return "OFF AIR"
        }
    }

    /// The chat chip's width with its label laid out as `text`.
    static func chatChipWidth(text: TextLayout, height: Double) -> Double {
        Double(text.width) + height * 0.34 + height * 0.9
    }

    /// Draws the on-air badge, its label laid out as `text`, with its left edge at x; returns its width.
    static func drawOnAirBadge(_ cr: OpaquePointer, _ state: OnAirState, text: TextLayout, x: Double, centerY: Double,
                               height: Double) -> Double {
        let dot = state == .offAir ? 0 : height * 0.28
        let width = onAirBadgeWidth(state, text: text, height: height)
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

    /// Draws the chat connection chip (a dot and "chat", or "chat: reconnecting"), its label laid out
    /// as `text`; returns its width.
    static func drawChatChip(_ cr: OpaquePointer, _ status: FeedStatus, text: TextLayout, x: Double, centerY: Double,
                             height: Double) -> Double {
        let color = chatChip(status).1
        let dot = height * 0.34
        let width = chatChipWidth(text: text, height: height)
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
