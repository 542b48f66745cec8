// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// A row's text as laid out: the name and body with their byte ranges, and the places of
/// the pictures drawn inline like glyphs (the platform icon, badges, emotes), each an
/// U+FFFC character the layout gives a box of the picture's size.
struct RowText {
    enum Picture {
        case platform(PlatformBadge)
        case badge(Badge)
        /// An emote; `art` is nil while its picture is loading (a square is reserved).
        case emote(Emote, art: EmoteArt?)
    }

    struct Placed {
        var picture: Picture
        var byte: Int
    }

    var text = ""
    var name: Range<Int> = 0..<0
    var body: Range<Int> = 0..<0
    var pictures: [Placed] = []
    /// The viewer memory's labels (初見, おかえり, #12), each drawn small on a pill before the name;
    /// the range includes the thin spaces that pad the label inside its pill.
    var marks: [(mark: RowMark, bytes: Range<Int>)] = []
    /// Emote URLs still loading when the row was composed: the row is laid out again when they arrive.
    var pendingURLs: [String] = []

    /// Badges drawn as built-in icons before the name.
    enum Badge: String, CaseIterable {
        case broadcaster, moderator, vip, subscriber, founder, verified, member

        /// A feed's badge (`moderator/1`, `partner`, `owner`) → the icon; nil for others.
        init?(feedBadge: String) {
            let name = feedBadge.split(separator: "/").first.map(String.init)?.lowercased() ?? ""
            switch name {
            case "broadcaster", "owner": self = .broadcaster
            case "moderator", "mod": self = .moderator
            case "vip": self = .vip
            case "subscriber", "sub": self = .subscriber
            case "founder": self = .founder
            case "partner", "verified": self = .verified
            case "member", "sponsor": self = .member
            default: return nil
            }
        }
    }

    init(_ line: ChatLine, showBadges: Bool, emotes: EmoteImages?) {
        if let badge = line.platformBadge { picture(.platform(badge)); text += " " }
        if showBadges {
            let badges = line.badges.compactMap(Badge.init(feedBadge:)).prefix(3)
            for badge in badges { picture(.badge(badge)) }
            if !badges.isEmpty { text += " " }
        }
        for mark in line.marks.prefix(3) {
            // Isolated too: a label the streamer typed in a right-to-left script stays in its pill.
            let bytes = isolated { $0.append("\u{2009}" + mark.text + "\u{2009}") }
            marks.append((mark, bytes))
            text += " "
        }
        // Names and messages are each isolated (FSI … PDI): a right-to-left name cannot
        // reorder the message after it, nor a message the name before it. The name is the
        // viewer's nickname where the memory knows one.
        switch line.kind {
        case .comment:
            name = isolated { $0.append(line.shownName) }
            text += "  "
            body = isolated { $0.appendBody(line, emotes: emotes) }
        case .action:
            name = isolated { $0.append(line.shownName) }
            text += " "
            body = isolated { $0.appendBody(line, emotes: emotes) }
        case .notice:
            text += "📣 "
            body = isolated { $0.appendBody(line, emotes: emotes) }
        case .gift(let giftName, let count):
            text += "🎁 "
            name = isolated { $0.append(line.shownName) }
            text += "  "
            body = isolated { $0.append(count > 1 ? "\(giftName) ×\(count)" : giftName) }
            if !line.text.isEmpty {
                text += "  "
                _ = isolated { $0.appendBody(line, emotes: emotes) }
            }
        }
    }

    /// Appends what `part` appends between U+2068 FIRST STRONG ISOLATE and U+2069 POP
    /// DIRECTIONAL ISOLATE; its range excludes them.
    private mutating func isolated(_ part: (inout RowText) -> Range<Int>) -> Range<Int> {
        text += "\u{2068}"
        let range = part(&self)
        text += "\u{2069}"
        return range
    }

    private mutating func append(_ part: String) -> Range<Int> {
        let start = text.utf8.count
        text += part
        return start..<text.utf8.count
    }

    private mutating func picture(_ picture: Picture) {
        pictures.append(Placed(picture: picture, byte: text.utf8.count))
        text += "\u{FFFC}"
    }

    /// The row's text with each emote's run replaced by its picture, or kept as text when
    /// the picture failed (or there is no picture store: a bar without emote images).
    private mutating func appendBody(_ line: ChatLine, emotes: EmoteImages?) -> Range<Int> {
        let start = text.utf8.count
        let scalars = Array(line.text.unicodeScalars)
        var position = 0
        for emote in line.emotes {
            let state = emotes?.state(of: emote.url)
            let art: EmoteArt?
            switch state {
            case .ready(let ready)?: art = ready
            case .loading?: art = nil
            case .failed?, nil: continue
            }
            text.unicodeScalars.append(contentsOf: scalars[position..<emote.range.lowerBound])
            picture(.emote(emote, art: art))
            if art == nil { pendingURLs.append(emote.url) }
            position = emote.range.upperBound
        }
        text.unicodeScalars.append(contentsOf: scalars[position...])
        return start..<text.utf8.count
    }
}
