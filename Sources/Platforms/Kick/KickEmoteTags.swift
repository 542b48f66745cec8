// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Kick writes emotes inline as `[emote:ID:NAME]`: the bar shows NAME, drawn as the picture
/// from Kick's own emote host (the only host a Kick emote may come from).
enum KickEmoteTags {
    static let imageHost = "files.kick.com"

    static func imageURL(id: String) -> String {
        "https://\(imageHost)/emotes/\(id)/fullsize"
    }

    /// The text with each tag replaced by its name, and the emotes over those names.
    static func expand(_ content: String) -> (text: String, emotes: [Emote]) {
        var text = String.UnicodeScalarView()
        var emotes: [Emote] = []
        var count = 0
        var rest = Substring(content)
        while let open = rest.firstRange(of: "[emote:") {
            text.append(contentsOf: rest[..<open.lowerBound].unicodeScalars)
            count += rest[..<open.lowerBound].unicodeScalars.count
            let body = rest[open.upperBound...]
            if let close = body.firstIndex(of: "]"), let tag = tag(body[..<close]) {
                text.append(contentsOf: tag.name.unicodeScalars)
                let length = tag.name.unicodeScalars.count
                if emotes.count < Emote.maxPerRow {
                    emotes.append(Emote(range: count..<(count + length), name: tag.name, url: imageURL(id: tag.id)))
                }
                count += length
                rest = body[body.index(after: close)...]
            } else {
                // Not a tag after all: the bracket stays as text.
                text.append(contentsOf: rest[open].unicodeScalars)
                count += rest[open].unicodeScalars.count
                rest = body
            }
        }
        text.append(contentsOf: rest.unicodeScalars)
        return (String(text), emotes)
    }

    /// `ID:NAME`: digits, then a name of letters, digits and `_` (Kick's emote names).
    private static func tag(_ body: Substring) -> (id: String, name: String)? {
        guard body.utf8.count <= 120, let colon = body.firstIndex(of: ":") else { return nil }
        let id = body[..<colon], name = body[body.index(after: colon)...]
        guard !id.isEmpty, id.utf8.count <= 12, id.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
              !name.isEmpty, name.unicodeScalars.allSatisfy({
                  $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
              }) else { return nil }
        return (String(id), String(name))
    }
}
