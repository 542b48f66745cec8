import CCairo
import CPangoCairo
import CommentBarCore

/// One comment row, laid out and drawn once into its own image (the seeds'
/// "redrawn layer", cached per comment): it is drawn again only when the
/// comment, the width or the theme changes.
final class LineImage {
    let line: ChatLine
    let image: ImageSurface
    /// Wrapped lines, as counted against the bar's `max_lines`.
    let lineCount: Int
    var height: Int { image.height }

    struct Style {
        var family: String
        var size: Double
        /// The OBS font picker's bold and italic, for the comment text.
        var bold = false
        var italic = false
        var textColor: RGBA
        var width: Int
        /// Wrapped lines one comment may take before it is cut with an ellipsis.
        var maxLinesPerComment: Int
    }

    init(line: ChatLine, style: Style, engine: TextEngine) {
        self.line = line
        let composed = Self.compose(line)
        let attributes = TextAttributes()
        let iconSize = (style.size * 0.9).rounded()
        if let icon = composed.icon {
            attributes.inlineBox(bytes: icon, width: iconSize, ascent: iconSize * 0.82, descent: iconSize * 0.18)
        }
        let nameColor = Palette.nameColor(for: line)
        if !composed.name.isEmpty {
            attributes.bold(bytes: composed.name)
            attributes.color(nameColor, bytes: composed.name)
        }
        switch line.kind {
        case .comment:
            break
        case .action:
            attributes.italic(bytes: composed.body)
            attributes.color(nameColor, bytes: composed.body)
        case .notice:
            attributes.italic(bytes: composed.body)
            attributes.color(Palette.notice, bytes: composed.body)
        case .gift:
            attributes.color(Palette.gift, bytes: composed.body)
            attributes.bold(bytes: composed.body)
        }
        let isGift = if case .gift = line.kind { true } else { false }
        let pillColor = line.highlight ?? (isGift ? Palette.gift : nil)
        let onPill = pillColor != nil
        let inset = onPill ? Int((style.size * 0.4).rounded()) : 0
        let font = TextEngine.font(family: style.family, size: style.size, bold: style.bold, italic: style.italic)
        defer { pango_font_description_free(font) }
        let layout = engine.layout(composed.text, font: font, width: style.width - 2 * inset,
                                   maxLines: style.maxLinesPerComment, attributes: attributes.list)
        lineCount = layout.lineCount
        let verticalInset = onPill ? Int((style.size * 0.12).rounded()) : 0
        image = ImageSurface(width: min(style.width, layout.width + 2 * inset + 2),
                             height: layout.height + 2 * verticalInset)
        image.withContext { cr in
            if let pillColor {
                // Gifts and highlighted rows stand out: a tinted pill behind the row.
                RGBA(pillColor, alpha: line.highlight == nil ? 0.2 : 0.35).setSource(cr)
                Icons.roundedRect(cr, 0, 0, Double(image.width), Double(image.height), Double(image.height) / 2)
                cairo_fill(cr)
            }
            layout.draw(cr, x: Double(inset), y: Double(verticalInset), color: style.textColor)
            if let icon = composed.icon, let platform = line.platform {
                let box = layout.box(atByte: icon.lowerBound)
                Icons.platform(cr, service: platform, x: Double(inset) + box.x,
                               y: Double(verticalInset) + box.y + (box.height - iconSize) / 2, size: iconSize)
            }
        }
    }

    /// The row's text and the byte ranges of its platform icon (when the bar reads several
    /// streams), its name and its body, for attributes.
    static func compose(_ line: ChatLine) -> (text: String, icon: Range<Int>?, name: Range<Int>, body: Range<Int>) {
        var text = ""
        func append(_ part: String) -> Range<Int> {
            let start = text.utf8.count
            text += part
            return start..<text.utf8.count
        }
        let icon = line.platform.map { _ in append("\u{FFFC}") }
        if icon != nil { text += " " }
        text += badgePrefix(line.badges)
        switch line.kind {
        case .comment:
            let name = append(line.user)
            text += "  "
            let body = append(line.text)
            return (text, icon, name, body)
        case .action:
            let name = append(line.user)
            text += " "
            let body = append(line.text)
            return (text, icon, name, body)
        case .notice:
            text += "📣 "
            let body = append(line.text)
            return (text, icon, 0..<0, body)
        case .gift(let giftName, let count):
            text += "🎁 "
            let name = append(line.user)
            text += "  "
            let body = append(count > 1 ? "\(giftName) ×\(count)" : giftName)
            if !line.text.isEmpty { text += "  " + line.text }
            return (text, icon, name, body)
        }
    }

    /// Twitch-style badges as small symbols before the name.
    static func badgePrefix(_ badges: [String]) -> String {
        var symbols = ""
        for badge in badges.prefix(3) {
            let name = badge.split(separator: "/").first.map(String.init) ?? badge
            switch name {
            case "broadcaster": symbols += "🎥"
            case "moderator": symbols += "🛡️"
            case "vip": symbols += "💎"
            case "subscriber", "founder": symbols += "⭐"
            default: continue
            }
        }
        return symbols.isEmpty ? "" : symbols + " "
    }
}
