// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore

/// The pinned comment (issue 30), drawn in a strip at the top of the comment area: an accent
/// pill, a pin mark, then the row with its name as the bar lays out any row, at most two
/// lines. Like a row it is laid out and drawn once, into its own image, and kept while the
/// pin and the rows' style stay the same.
final class PinStrip {
    let line: ChatLine
    let style: TextStyle
    let image: ImageSurface
    /// Pictures of its emotes still loading: the strip is made again once they arrive.
    let pendingURLs: [String]
    var height: Int { image.height }

    /// A pinned comment is read at a glance: two lines at most.
    static let maxLines = 2
    static let accent = RGBA(hex: "#ffb300")

    init(line: ChatLine, style: TextStyle, engine: TextEngine, emotes: EmoteImages?) {
        self.line = line
        self.style = style
        let inset = Int((style.size * 0.4).rounded())
        let verticalInset = Int((style.size * 0.2).rounded())
        let markSize = style.size.rounded()
        let textX = inset + Int(markSize) + inset
        var rowStyle = style
        rowStyle.width = max(1, style.width - textX - inset)
        rowStyle.maxLinesPerComment = min(Self.maxLines, style.maxLinesPerComment)
        // The strip is still: an animated emote shows its first frame, drawn into the row's image.
        rowStyle.animateEmotes = false
        // The strip is the row's pill: a highlight's own pill (or a bubble) inside it would be a second one.
        rowStyle.look.bubble = nil
        var shown = line
        shown.highlight = nil
        let row = LineImage(line: shown, style: rowStyle, engine: engine, emotes: emotes)
        pendingURLs = row.pendingURLs
        let image = ImageSurface(width: style.width, height: row.height + 2 * verticalInset)
        image.withContext { cr in
            let width = Double(image.width), height = Double(image.height)
            Icons.roundedRect(cr, 0.5, 0.5, width - 1, height - 1, min(height / 2, style.size * 0.5))
            Self.accent.with(alpha: 0.22).setSource(cr)
            cairo_fill_preserve(cr)
            Self.accent.with(alpha: 0.85).setSource(cr)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            Icons.pin(cr, x: Double(inset), y: ((height - markSize) / 2).rounded(), size: markSize, color: Self.accent)
            cairo_set_source_surface(cr, row.image.surface, Double(textX), Double(verticalInset))
            cairo_paint(cr)
        }
        self.image = image
    }
}
