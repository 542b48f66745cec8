// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CPangoCairo

/// The clock's characters, each laid out once into its own small image; a
/// clock tick is then a few blits, not a text layout. Digits sit in cells of
/// one width, so the clock does not jitter as it counts.
final class ClockFace {
    private var glyphs: [Character: (image: ImageSurface, advance: Int)] = [:]
    let cellWidth: Int
    /// The glyphs' height, their outline included.
    let height: Int
    let style: Style

    /// What the glyphs depend on: a clock is made again only when this changes.
    struct Style: Equatable {
        var family: String
        /// Pixels.
        var size: Double
        var color: RGBA
        /// The rows' outline and shadow (issue 38), so the clock reads over a game like the rows.
        var look = RowLook()
    }

    init(engine: TextEngine, style: Style) {
        self.style = style
        let font = TextEngine.font(family: style.family, size: style.size, bold: true)
        defer { pango_font_description_free(font) }
        let margin = style.look.margin
        var widest = 1
        var tallest = 1
        for character in "0123456789:-" {
            let layout = engine.layout(String(character), font: font)
            let image = ImageSurface(width: layout.width + 2 + 2 * margin, height: layout.height + 2 * margin)
            image.withContext { cr in
                LineImage.drawOutline(layout, look: style.look, x: Double(1 + margin), y: Double(margin), on: cr)
                layout.draw(cr, x: Double(1 + margin), y: Double(margin), color: style.color)
            }
            glyphs[character] = (image, layout.width)
            if character.isNumber { widest = max(widest, layout.width) }
            tallest = max(tallest, layout.height)
        }
        cellWidth = widest
        height = tallest + 2 * margin
    }

    /// The text's width, its outline included.
    func width(of text: String) -> Int {
        text.reduce(0) { $0 + advance(of: $1) } + 2 * style.look.margin
    }

    /// Draws `text` in the box from (x, y) (its outline inside it); characters it has no image for
    /// are skipped.
    func draw(_ text: String, on cr: OpaquePointer, x: Int, y: Int, alpha: Double = 1) {
        var pen = x
        for character in text {
            let advance = advance(of: character)
            if let glyph = glyphs[character] {
                let offset = (advance - glyph.advance) / 2 - 1
                cairo_set_source_surface(cr, glyph.image.surface, Double(pen + offset), Double(y))
                cairo_paint_with_alpha(cr, alpha)
            }
            pen += advance
        }
    }

    private func advance(of character: Character) -> Int {
        character.isNumber ? cellWidth : (glyphs[character]?.advance ?? cellWidth)
    }
}
