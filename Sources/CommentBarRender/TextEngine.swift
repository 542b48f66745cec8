// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CPangoCairo
import CommentBarCore

/// Pango text layout shared by every layer: one context and its font options,
/// made once (the seeds' first lesson: expensive contexts are created once).
/// fontconfig fallback finds a font for every character an installed font has,
/// so Japanese and colour emoji work with any primary font.
final class TextEngine {
    private(set) var context: OpaquePointer
    /// Which font map `context` was made on.
    private var generation: UInt64

    /// One font map for the whole process. `pango_cairo_font_map_get_default()` is per thread,
    /// and the frame loop is a task that runs on whichever thread is free: each renderer made on
    /// another thread had a font map of its own, with its own fonts, HarfBuzz faces and cairo
    /// scaled fonts, so each CJK font was opened and mapped again. Pango objects are used by one
    /// thread at a time here (the frame loop, or `render`), never concurrently. It is made anew
    /// when its fonts have drawn more distinct characters than `glyphs` allows.
    nonisolated(unsafe) private static var fontMap = pango_cairo_font_map_new()
    nonisolated(unsafe) private(set) static var fontMapGeneration: UInt64 = 0
    /// The characters the shared font map's fonts have drawn.
    nonisolated(unsafe) static var glyphs = GlyphBudget()

    init() {
        generation = Self.fontMapGeneration
        context = Self.makeContext()
    }

    private static func makeContext() -> OpaquePointer {
        let context: OpaquePointer = pango_font_map_create_context(fontMap)
        // Grey antialiasing and unhinted metrics: the same pixels whatever the
        // output's subpixel order, and layouts that do not depend on the target.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_base_dir(context, PANGO_DIRECTION_LTR)
        return context
    }

    /// Makes the font map anew when its fonts have drawn more distinct characters than the budget,
    /// and frees the old fonts' glyphs; returns whether it did. The same fonts are found again,
    /// so text looks the same. Called between frames, when no layout of the old map is alive.
    @discardableResult
    func renewFontsIfFull() -> Bool {
        guard Self.glyphs.isSpent else {
            if generation != Self.fontMapGeneration { useCurrentFontMap() }
            return false
        }
        g_object_unref(UnsafeMutableRawPointer(Self.fontMap))
        Self.fontMap = pango_cairo_font_map_new()
        Self.fontMapGeneration &+= 1
        Self.glyphs = GlyphBudget(limit: Self.glyphs.limit)
        useCurrentFontMap()
        GlyphBudget.releaseUnusedGlyphs()
        return true
    }

    private func useCurrentFontMap() {
        let old = context
        context = Self.makeContext()
        generation = Self.fontMapGeneration
        g_object_unref(UnsafeMutableRawPointer(old))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(context)) }

    /// A font description: the theme's family (fontconfig falls back per character), a pixel size.
    static func font(family: String, size: Double, bold: Bool = false, italic: Bool = false) -> OpaquePointer {
        let description: OpaquePointer = pango_font_description_new()
        pango_font_description_set_family(description, family)
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(description, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        return description
    }

    /// A laid-out paragraph. `maxLines` > 0 ellipsizes after that many wrapped lines.
    /// `singleParagraph`: line breaks in the text start no new line (the ticker's one line).
    func layout(_ text: String, font: OpaquePointer, width: Int? = nil, maxLines: Int = 0,
                attributes: OpaquePointer? = nil, singleParagraph: Bool = false) -> TextLayout {
        Self.glyphs.note(text)
        let layout: OpaquePointer = pango_layout_new(context)
        pango_layout_set_font_description(layout, font)
        // Every paragraph is left to right (the context's base direction): Pango's automatic
        // direction looks inside isolates, so a right-to-left name at the start of a row would
        // turn the whole row around. Names and messages are each isolated (RowText) and keep
        // their own direction inside.
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_text(layout, text, -1)
        if let width {
            pango_layout_set_width(layout, Int32(max(width, 1)) * PANGO_SCALE)
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            if maxLines > 0 { pango_layout_set_height(layout, -Int32(maxLines)) }
        } else {
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        }
        if let attributes { pango_layout_set_attributes(layout, attributes) }
        if singleParagraph { pango_layout_set_single_paragraph_mode(layout, 1) }
        return TextLayout(layout)
    }
}

/// An owned PangoLayout with its measured size in pixels.
final class TextLayout {
    let layout: OpaquePointer
    let width: Int
    let height: Int
    let lineCount: Int

    init(_ layout: OpaquePointer) {
        self.layout = layout
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        width = Int(logical.x + logical.width)
        height = Int(logical.height)
        lineCount = Int(pango_layout_get_line_count(layout))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Makes the layout fit in `width` pixels on one line, with an ellipsis.
    func fitting(width limit: Int) -> TextLayout {
        guard width > limit else { return self }
        pango_layout_set_width(layout, Int32(max(limit, 1)) * PANGO_SCALE)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        return TextLayout(retaining: layout)
    }

    /// The same layout measured again (after a change to its settings).
    convenience init(retainingLayoutOf other: TextLayout) {
        self.init(retaining: other.layout)
    }

    private convenience init(retaining layout: OpaquePointer) {
        g_object_ref(UnsafeMutableRawPointer(layout))
        self.init(layout)
    }

    /// Where the character at `byte` sits, in pixels from the layout's top-left (an inline box's place).
    func box(atByte byte: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        var rect = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(byte), &rect)
        let scale = Double(PANGO_SCALE)
        return (Double(rect.x) / scale, Double(rect.y) / scale, Double(rect.width) / scale, Double(rect.height) / scale)
    }

    func draw(_ cr: OpaquePointer, x: Double, y: Double, color: RGBA) {
        cairo_save(cr)
        cairo_move_to(cr, x, y)
        color.setSource(cr)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }
}

/// A list of Pango attributes, built up by byte ranges of a UTF-8 string.
final class TextAttributes {
    let list: OpaquePointer = pango_attr_list_new()

    deinit { pango_attr_list_unref(list) }

    func color(_ color: RGBColor, bytes: Range<Int>) {
        add(pango_attr_foreground_new(UInt16(color.red) * 257, UInt16(color.green) * 257, UInt16(color.blue) * 257),
            bytes)
    }

    /// Makes the character at `bytes` (an U+FFFC object replacement) an empty box of this
    /// size, sitting on the baseline like a glyph: the caller draws a picture into it.
    func inlineBox(bytes: Range<Int>, width: Double, ascent: Double, descent: Double) {
        var rect = PangoRectangle(x: 0, y: Int32(-ascent * Double(PANGO_SCALE)), width: Int32(width * Double(PANGO_SCALE)),
                                  height: Int32((ascent + descent) * Double(PANGO_SCALE)))
        add(pango_attr_shape_new(&rect, &rect), bytes)
    }

    func bold(bytes: Range<Int>) { add(pango_attr_weight_new(PANGO_WEIGHT_BOLD), bytes) }
    /// Smaller text (`scale` of the font's size), raised by `rise` pixels: a label on a pill.
    func smaller(_ scale: Double, rise: Double, bytes: Range<Int>) {
        add(pango_attr_scale_new(scale), bytes)
        add(pango_attr_rise_new(Int32(rise * Double(PANGO_SCALE))), bytes)
    }
    func italic(bytes: Range<Int>) { add(pango_attr_style_new(PANGO_STYLE_ITALIC), bytes) }

    private func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ bytes: Range<Int>) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(bytes.lowerBound)
        attribute.pointee.end_index = UInt32(bytes.upperBound)
        pango_attr_list_insert(list, attribute)
    }
}

/// A colour with alpha, straight (not premultiplied), as Cairo's set_source takes it.
struct RGBA: Equatable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double

    init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    init(_ color: RGBColor, alpha: Double = 1) {
        self.init(Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, alpha)
    }

    /// OBS colours are 0xAABBGGRR.
    init(obsABGR value: UInt32) {
        self.init(RGBColor(obsABGR: value), alpha: Double(value >> 24) / 255)
    }

    init(hex: String, alpha: Double = 1) {
        self.init(RGBColor(hex: hex) ?? RGBColor(red: 255, green: 255, blue: 255), alpha: alpha)
    }

    func with(alpha: Double) -> RGBA { RGBA(red, green, blue, alpha) }

    func setSource(_ cr: OpaquePointer) { cairo_set_source_rgba(cr, red, green, blue, alpha) }
}
