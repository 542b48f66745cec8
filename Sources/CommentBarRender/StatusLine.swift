// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CPangoCairo
import CommentBarCore

/// The header's status message (what is wrong, if anything): one line in its own box,
/// ellipsized to the box's width and clipped to it, whatever text a feed or relay sent.
enum StatusLine {
    /// Lays out `detail` as one line at most `width` pixels wide.
    static func layout(_ detail: String, engine: TextEngine, font: OpaquePointer, width: Int) -> TextLayout {
        let text = engine.layout(TextSanitizer.statusLine(detail), font: font)
        // Line breaks that got through (U+2028, say) do not start a second line.
        pango_layout_set_single_paragraph_mode(text.layout, 1)
        return TextLayout(retainingLayoutOf: text).fitting(width: width)
    }

    /// Draws `detail` in the box from `x` to `x + width`, centred on `centerY`, never outside it;
    /// returns the box the text took.
    @discardableResult
    static func draw(_ cr: OpaquePointer, _ detail: String, engine: TextEngine, font: OpaquePointer,
                     x: Int, width: Int, centerY: Double, color: RGBA) -> PixelRect {
        let text = layout(detail, engine: engine, font: font, width: width)
        let top = (centerY - Double(text.height) / 2).rounded()
        cairo_save(cr)
        cairo_rectangle(cr, Double(x), top, Double(width), Double(text.height))
        cairo_clip(cr)
        text.draw(cr, x: Double(x), y: top, color: color)
        cairo_restore(cr)
        return PixelRect(x: x, y: Int(top), width: min(width, text.width), height: text.height)
    }
}
