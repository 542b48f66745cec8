// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The third-party emote codes a channel's chat can use, merged in the order they win a clash,
/// and the matching of a row's words against them.
///
/// Order: Twitch's own emotes (the `emotes` tag) always win; then the channel's 7TV, BetterTTV
/// and FrankerFaceZ sets (the streamer chose those), then the global 7TV, BetterTTV and
/// FrankerFaceZ sets. Within that, the first list that names a code keeps it.
struct EmoteCodeMap: Sendable, Equatable {
    /// At most this many codes: a hostile or enormous set costs bounded memory.
    static let maxCodes = 10_000

    private(set) var urls: [String: String] = [:]

    init() {}

    /// `lists` in the order they win a clash.
    init(_ lists: [[ThirdPartyEmoteSets.Entry]]) {
        for list in lists {
            for entry in list where urls[entry.code] == nil {
                guard urls.count < Self.maxCodes else { return }
                urls[entry.code] = entry.url
            }
        }
    }

    var isEmpty: Bool { urls.isEmpty }
    var count: Int { urls.count }

    /// The words of `text` (split on spaces) that are a code, as emotes, except where they
    /// overlap an emote already there (Twitch's own); the result keeps those first ones too.
    func adding(to emotes: [Emote], in text: String) -> [Emote] {
        guard !urls.isEmpty else { return emotes }
        var found = emotes
        var start = 0
        var word = String.UnicodeScalarView()
        func endWord(at end: Int) {
            defer { word = String.UnicodeScalarView() }
            guard !word.isEmpty, word.count <= ThirdPartyEmoteSets.maxCodeScalars else { return }
            let code = String(word)
            guard let url = urls[code] else { return }
            let range = start..<end
            guard !emotes.contains(where: { $0.range.overlaps(range) }) else { return }
            found.append(Emote(range: range, name: code, url: url))
        }
        var offset = 0
        for scalar in text.unicodeScalars {
            if scalar == " " {
                endWord(at: offset)
                start = offset + 1
            } else {
                word.append(scalar)
            }
            offset += 1
            // Enough for a full row: Emote.valid keeps at most maxPerRow anyway.
            if found.count >= Emote.maxPerRow { break }
        }
        if found.count < Emote.maxPerRow { endWord(at: offset) }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
