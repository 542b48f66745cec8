// SPDX-License-Identifier: GPL-2.0-or-later
/// An image that stands for a run of a row's text: a Twitch, BetterTTV, FrankerFaceZ or 7TV
/// emote, or a YouTube custom emoji. The bar draws it inline like a glyph; the text it
/// replaces is shown instead when the image cannot be used.
public struct Emote: Sendable, Equatable, Hashable {
    /// The text it replaces, as Unicode scalar offsets into the row's text (half-open; Twitch's
    /// `emotes` tag counts the same way, inclusive).
    public var range: Range<Int>
    /// The replaced text itself (`Kappa`, `:face-blue-smiling:`).
    public var name: String
    /// An `https://` image URL (PNG, GIF or WebP; animated ones move).
    public var url: String

    public init(range: Range<Int>, name: String, url: String) {
        self.range = range
        self.name = name
        self.url = url
    }

    /// At most this many emotes per row: a row of 500 `Kappa`s shows the first ones as images.
    public static let maxPerRow = 64

    /// The emotes that really stand for their text: inside `text`, the text at the range equal
    /// to the name, https only, in order and not overlapping, at most `maxPerRow`. Anything else
    /// is dropped (the text then shows as text), so a hostile feed cannot misplace an image.
    public static func valid(_ emotes: [Emote], in text: String) -> [Emote] {
        guard !emotes.isEmpty else { return [] }
        let scalars = Array(text.unicodeScalars)
        var kept: [Emote] = []
        var end = 0
        for emote in emotes.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard kept.count < maxPerRow, emote.range.lowerBound >= end, emote.range.upperBound <= scalars.count,
                  !emote.range.isEmpty, emote.url.lowercased().hasPrefix("https://"), emote.url.utf8.count <= 2048,
                  String(String.UnicodeScalarView(scalars[emote.range])) == emote.name else { continue }
            kept.append(emote)
            end = emote.range.upperBound
        }
        return kept
    }
}
