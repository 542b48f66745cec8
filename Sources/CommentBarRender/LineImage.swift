// SPDX-License-Identifier: GPL-2.0-or-later
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

    /// Emote URLs that were still loading when the row was laid out.
    let pendingURLs: [String]
    /// Animated emotes, not drawn into `image`: the renderer draws their current frame.
    let animated: [(rect: PixelRect, art: EmoteArt)]

    /// `viewers`: the colours the bar gave each viewer so far, so a viewer keeps one (nil: by the name).
    init(line: ChatLine, style: TextStyle, engine: TextEngine, emotes: EmoteImages? = nil,
         viewers: ViewerColors? = nil) {
        self.line = line
        let composed = RowText(line, showBadges: style.showBadges, emotes: emotes)
        pendingURLs = composed.pendingURLs
        let attributes = TextAttributes()
        let iconSize = (style.size * 0.9).rounded()
        let emoteHeight = (style.size * 1.2).rounded()
        for placed in composed.pictures {
            let bytes = placed.byte..<placed.byte + 3
            switch placed.picture {
            case .platform, .badge:
                attributes.inlineBox(bytes: bytes, width: iconSize, ascent: iconSize * 0.82, descent: iconSize * 0.18)
            case .emote(_, let art):
                // A loading picture reserves a square; a wide emote at most four squares.
                let aspect = art.map { min(4, Double($0.width) / Double(max($0.height, 1))) } ?? 1
                attributes.inlineBox(bytes: bytes, width: (emoteHeight * aspect).rounded(), ascent: emoteHeight * 0.8,
                                     descent: emoteHeight * 0.2)
            }
        }
        for (_, bytes) in composed.marks {
            attributes.smaller(Self.markScale, rise: style.size * 0.05, bytes: bytes)
            attributes.bold(bytes: bytes)
            attributes.color(RGBColor(red: 255, green: 255, blue: 255), bytes: bytes)
        }
        let colors = RowColors(line: line, style: style, viewers: viewers)
        if !composed.name.isEmpty {
            attributes.bold(bytes: composed.name)
            attributes.color(colors.name, bytes: composed.name)
        }
        switch line.kind {
        case .comment:
            break
        case .action:
            attributes.italic(bytes: composed.body)
            attributes.color(colors.name, bytes: composed.body)
        case .notice:
            attributes.italic(bytes: composed.body)
            attributes.color(colors.notice, bytes: composed.body)
        case .gift:
            attributes.color(colors.gift, bytes: composed.body)
            attributes.bold(bytes: composed.body)
        }
        let pill = Self.pillTint(for: line)
        let bubble = pill == nil ? style.look.bubble : nil
        let onPill = pill != nil || bubble != nil
        let inset = onPill ? Int((style.size * 0.4).rounded()) : 0
        // The outline and the shadow reach beyond the glyphs: the text sits that far in.
        let margin = style.look.margin
        let font = TextEngine.font(family: style.family, size: style.size, bold: style.bold, italic: style.italic)
        defer { pango_font_description_free(font) }
        let layout = engine.layout(composed.text, font: font, width: style.width - 2 * inset - 2 * margin,
                                   maxLines: style.maxLinesPerComment, attributes: attributes.list,
                                   singleParagraph: style.look.singleLine)
        lineCount = layout.lineCount
        let verticalInset = onPill ? Int((style.size * 0.12).rounded()) : 0
        let image = ImageSurface(width: min(style.width, layout.width + 2 * inset + 2 + 2 * margin),
                                 height: layout.height + 2 * verticalInset + 2 * margin)
        let textX = Double(inset + margin), textY = Double(verticalInset + margin)
        var animatedEmotes: [(rect: PixelRect, art: EmoteArt)] = []
        image.withContext { cr in
            if let pill {
                // Gifts and highlighted rows stand out: a tinted pill behind the row.
                RGBA(pill.color, alpha: pill.alpha).setSource(cr)
                Icons.roundedRect(cr, 0, 0, Double(image.width), Double(image.height), Double(image.height) / 2)
                cairo_fill(cr)
            } else if let bubble {
                bubble.setSource(cr)
                Icons.roundedRect(cr, 0, 0, Double(image.width), Double(image.height),
                                  min(Double(image.height) / 2, style.size * 0.55))
                cairo_fill(cr)
            }
            for (mark, bytes) in composed.marks {
                Self.drawPill(for: mark, bytes: bytes, in: layout, x: textX, y: textY, on: cr)
            }
            Self.drawOutline(layout, look: style.look, x: textX, y: textY, on: cr)
            layout.draw(cr, x: textX, y: textY, color: colors.text)
            for placed in composed.pictures {
                let box = layout.box(atByte: placed.byte)
                let x = textX + box.x, y = textY + box.y
                switch placed.picture {
                case .platform(let badge):
                    Icons.platform(cr, badge, x: x, y: y + (box.height - iconSize) / 2, size: iconSize)
                case .badge(let badge):
                    Icons.badge(cr, badge, x: x, y: y + (box.height - iconSize) / 2, size: iconSize)
                case .emote(_, let art?):
                    let rect = PixelRect(x: Int(x.rounded()), y: Int((y + (box.height - emoteHeight) / 2).rounded()),
                                         width: Int(box.width.rounded()), height: Int(emoteHeight))
                    if art.isAnimated && style.animateEmotes {
                        animatedEmotes.append((rect, art))
                    } else {
                        Self.draw(art, frame: 0, in: rect, on: cr)
                    }
                case .emote(_, nil):
                    break  // loading: its square stays empty until the picture arrives
                }
            }
        }
        self.image = image
        animated = animatedEmotes
    }

    /// The tint behind a gift's or a highlighted row's text, if it has one.
    static func pillTint(for line: ChatLine) -> (color: RGBColor, alpha: Double)? {
        if let highlight = line.highlight { return (highlight, 0.35) }
        if case .gift = line.kind { return (Palette.gift, 0.2) }
        return nil
    }

    /// The shadow and the outline of the text (issue 38): the glyphs' path offset and filled, then
    /// stroked, in the outline colour, under the text drawn in its own colours.
    static func drawOutline(_ layout: TextLayout, look: RowLook, x: Double, y: Double, on cr: OpaquePointer) {
        guard look.outline > 0 || look.shadow else { return }
        cairo_save(cr)
        if look.shadow {
            // The outlined glyphs, offset, as one translucent shape (no darker overlaps).
            let offset = Double(look.shadowOffset)
            cairo_push_group(cr)
            cairo_move_to(cr, x + offset, y + offset)
            pango_cairo_layout_path(cr, layout.layout)
            look.outlineColor.setSource(cr)
            if look.outline > 0 {
                cairo_set_line_width(cr, Double(2 * look.outline))
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                cairo_stroke_preserve(cr)
            }
            cairo_fill(cr)
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, 0.7)
        }
        if look.outline > 0 {
            cairo_move_to(cr, x, y)
            pango_cairo_layout_path(cr, layout.layout)
            look.outlineColor.setSource(cr)
            cairo_set_line_width(cr, Double(2 * look.outline))
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }

    /// How large a memory label's text is beside the row's.
    static let markScale = 0.75

    /// The pill behind a memory label: the label's run on its line, a little shorter than the
    /// line, in the label's colour (teal first time, amber back, slate for the count).
    static func drawPill(for mark: RowMark, bytes: Range<Int>, in layout: TextLayout, x: Double, y: Double,
                         on cr: OpaquePointer) {
        // The range ends with a thin space (3 bytes): the pill ends where it ends. (The byte
        // after it is the isolate's closing mark, which Pango places elsewhere.)
        let start = layout.box(atByte: bytes.lowerBound)
        let last = layout.box(atByte: bytes.upperBound - 3)
        // A label is first on its row; if the bar is so narrow that it wraps, it ends at the line's end.
        let width = last.y == start.y ? last.x + last.width - start.x : Double(layout.width) - start.x
        guard width > 0, start.height > 0 else { return }
        let height = start.height * 0.84
        let top = y + start.y + (start.height - height) / 2
        RGBA(pillColor(mark.kind), alpha: 0.95).setSource(cr)
        Icons.roundedRect(cr, x + start.x, top, width, height, height * 0.35)
        cairo_fill(cr)
    }

    static func pillColor(_ kind: RowMark.Kind) -> RGBColor {
        switch kind {
        case .firstTime: return RGBColor(red: 0x26, green: 0xA6, blue: 0x9A)
        case .back: return RGBColor(red: 0xEF, green: 0x6C, blue: 0x00)
        case .count: return RGBColor(red: 0x54, green: 0x6E, blue: 0x7A)
        }
    }

    /// Draws frame `frame` of `art` scaled into `rect`.
    static func draw(_ art: EmoteArt, frame: Int, in rect: PixelRect, on cr: OpaquePointer) {
        guard art.frames.indices.contains(frame), rect.width > 0, rect.height > 0 else { return }
        let picture = art.frames[frame]
        cairo_save(cr)
        cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_clip(cr)
        cairo_translate(cr, Double(rect.x), Double(rect.y))
        cairo_scale(cr, Double(rect.width) / Double(picture.width), Double(rect.height) / Double(picture.height))
        cairo_set_source_surface(cr, picture.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
