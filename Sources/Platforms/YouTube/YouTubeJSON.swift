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

        struct Image: Decodable, Sendable { var accessibility: Accessibility? }
    }

    /// The text as shown: a standard emoji as its Unicode character (YouTube's `emojiId`),
    /// a custom (channel or YouTube) emoji as its shortcut such as `:_hype:`.
    var plain: String {
        if let runs {
            return runs.compactMap(\.value).map { run in
                if let text = run.text { return text }
                guard let emoji = run.emoji else { return "" }
                let isUnicode = emoji.isCustomEmoji != true
                    && emoji.emojiId.map { !$0.isEmpty && !$0.contains("/") && !$0.unicodeScalars.allSatisfy(\.isASCII) } == true
                if isUnicode, let id = emoji.emojiId { return id }
                if let shortcut = emoji.shortcuts?.first, !shortcut.isEmpty { return shortcut }
                if let label = emoji.image?.accessibility?.accessibilityData?.label, !label.isEmpty { return ":\(label):" }
                return emoji.emojiId ?? ""
            }.joined()
        }
        return simpleText ?? ""
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
