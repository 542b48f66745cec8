// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import FoundationEssentials

/// The shapes YouTube's JSON shares between pages and InnerTube responses. Every field is
/// optional: only the paths the feed reads are decoded, anything else is ignored.

/// Formatted text: `simpleText`, or `runs` of text and emoji.
struct YouTubeText: Decodable, Sendable {
    var simpleText: String?
    var runs: [Skippable<Run>]?

    struct Run: Decodable, Sendable {
        var text: String?
        var emoji: Emoji?
    }

    struct Emoji: Decodable, Sendable {
        var emojiId: String?
        var shortcuts: [String]?
        var isCustomEmoji: Bool?
        var image: Image?

        struct Image: Decodable, Sendable {
            var thumbnails: [Skippable<Thumbnail>]?
            var accessibility: Accessibility?
        }
        struct Thumbnail: Decodable, Sendable {
            var url: String?
            var width: Int?
        }

        /// A standard emoji: YouTube's `emojiId` is the character itself. Custom (channel
        /// member or YouTube) emoji have ids like `UC…/…` and an image.
        var isUnicode: Bool {
            isCustomEmoji != true
                && emojiId.map { !$0.isEmpty && !$0.contains("/") && !$0.unicodeScalars.allSatisfy(\.isASCII) } == true
        }

        /// The text that stands for it: the character, else the shortcut such as `:_hype:`.
        var text: String {
            if isUnicode, let id = emojiId { return id }
            if let shortcut = shortcuts?.first, !shortcut.isEmpty { return shortcut }
            if let label = image?.accessibility?.accessibilityData?.label, !label.isEmpty { return ":\(label):" }
            return emojiId ?? ""
        }

        /// Emote images are drawn at about this size; YouTube's are square.
        static let preferredWidth = 48

        /// The https image closest to the bar's emote size: the smallest at least
        /// `preferredWidth` wide, else the widest (YouTube often sends only 24 px).
        var imageURL: String? {
            let candidates = (image?.thumbnails ?? []).compactMap(\.value).compactMap { thumbnail -> (url: String, width: Int)? in
                guard let url = thumbnail.url.map({ $0.hasPrefix("//") ? "https:" + $0 : $0 }),
                      url.lowercased().hasPrefix("https://"), url.utf8.count <= 2048,
                      !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else { return nil }
                return (url, thumbnail.width ?? 0)
            }
            let bigEnough = candidates.filter { $0.width >= Self.preferredWidth }.min { $0.width < $1.width }
            return (bigEnough ?? candidates.max { $0.width < $1.width })?.url
        }
    }

    /// The text as shown: a standard emoji as its Unicode character (YouTube's `emojiId`),
    /// a custom (channel or YouTube) emoji as its shortcut such as `:_hype:`.
    var plain: String { rendered.text }

    /// The text as shown, and an emote for each custom emoji in it (its shortcut with its
    /// image); standard emoji stay text.
    var rendered: (text: String, emotes: [Emote]) {
        guard let runs else { return (simpleText ?? "", []) }
        var text = ""
        var offset = 0
        var emotes: [Emote] = []
        for run in runs.compactMap(\.value) {
            if let plain = run.text {
                text += plain
                offset += plain.unicodeScalars.count
                continue
            }
            guard let emoji = run.emoji else { continue }
            let shown = emoji.text
            let length = shown.unicodeScalars.count
            if !emoji.isUnicode, length > 0, let url = emoji.imageURL, PictureHosts.allows(url, hosts: YouTubeService.description.pictureHosts) {
                emotes.append(Emote(range: offset..<(offset + length), name: shown, url: url))
            }
            text += shown
            offset += length
        }
        return (text, emotes)
    }
}

struct Accessibility: Decodable, Sendable {
    var accessibilityData: Label?
    struct Label: Decodable, Sendable { var label: String? }
}

/// An array element that may be of a shape this build does not know: it decodes to nil
/// instead of failing the whole response.
struct Skippable<Value: Decodable & Sendable>: Decodable, Sendable {
    var value: Value?
    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

/// A number YouTube sends as a JSON number or as a string of digits (`"1625"`).
struct LenientInt: Decodable, Sendable {
    var value: Int?
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = Int(text.filter(\.isNumber))
        }
    }
}

/// InnerTube's `context` object as the page's `INNERTUBE_CONTEXT` gives it: sent back with
/// every request. Only the client fields the web player sends are kept.
struct InnertubeContext: Codable, Sendable, Equatable {
    var client: Client?

    struct Client: Codable, Sendable, Equatable {
        var clientName: String?
        var clientVersion: String?
        var hl: String?
        var gl: String?
        var visitorData: String?
        var timeZone: String?
        var utcOffsetMinutes: Int?
    }

    /// What a keyless reader sends when the page named no context.
    static let web = InnertubeContext(client: Client(clientName: "WEB", clientVersion: "2.20240101.00.00", hl: "en", gl: "US"))
}
