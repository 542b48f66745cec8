// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import Glibc

/// How many distinct characters the fonts of one Pango font map have drawn, against what the
/// bar can show. Cairo keeps the image of every glyph it ever drew in a font (up to 16,384
/// glyphs, twice: its own copy and pixman's glyph cache, about 3 KiB a CJK glyph at 26 px), so
/// a long chat in kanji grows the renderer by 15–20 MiB that no frame needs. Past the budget
/// the font map is made anew (`TextEngine.renewFontsIfFull`) and the old fonts' glyphs freed.
struct GlyphBudget {
    /// Distinct characters laid out before the fonts are made anew: a little more than a bar shows
    /// at once (six rows of about 35 characters at 1280x360), about 1 MiB of glyphs. Rows already
    /// drawn are images: making the fonts anew never draws a shown row again, and a chat of a
    /// few hundred distinct characters (most chats) never makes them anew. (The kanji soak's
    /// RssAnon over its last 10 %, median of two runs each: 16.9 MiB with 1024, 15.5–16.1 with
    /// 512; later, runs side by side: 16.2–16.3 with 512, 15.0–15.4 with 256.)
    static let defaultLimit = 256

    var limit: Int
    private(set) var count = 0
    /// One bit per character of the Basic Multilingual Plane, a set for the rest.
    private var basic = [UInt64](repeating: 0, count: 1024)
    private var supplementary: Set<UInt32> = []

    init(limit: Int = GlyphBudget.defaultLimit) {
        self.limit = limit
    }

    var isSpent: Bool { count > limit }

    /// Notes the characters of `text` (each new one counts once).
    mutating func note(_ text: String) {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x10000 {
                let word = Int(value >> 6), bit = UInt64(1) << (value & 63)
                if basic[word] & bit == 0 {
                    basic[word] |= bit
                    count += 1
                }
            } else if supplementary.insert(value).inserted {
                count += 1
            }
        }
    }

    nonisolated(unsafe) private static var releases = 0

    /// Frees the glyphs of fonts nobody uses any more. Cairo keeps the last 256 scaled fonts that
    /// were let go, glyphs and all, in case they are asked for again (cairo-scaled-font.c,
    /// CAIRO_SCALED_FONT_MAX_HOLDOVERS); 256 throwaway scaled fonts of no glyphs push them out,
    /// which frees their glyphs (about 0.2 ms once fontconfig has resolved "sans"). The heap's
    /// free pages then go back to the system.
    static func releaseUnusedGlyphs() {
        // Fonts are made and let go by one thread at a time (the renderer's), like all Pango use here.
        let face: OpaquePointer = cairo_toy_font_face_create("sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        let options: OpaquePointer = cairo_font_options_create()
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        // Sizes no text uses and no recent release used, so each is a new scaled font: one
        // revived from the holdovers would push nothing out.
        let first = 2000 + (releases % 100) * 256
        releases += 1
        for index in 0..<256 {
            var size = cairo_matrix_t()
            cairo_matrix_init_scale(&size, Double(first + index), Double(first + index))
            cairo_scaled_font_destroy(cairo_scaled_font_create(face, &size, &identity, options))
        }
        cairo_font_options_destroy(options)
        cairo_font_face_destroy(face)
        malloc_trim(0)
    }
}
