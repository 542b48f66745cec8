// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport

/// One comment of comment.xml as MultiCommentViewer writes it for HTML5コメジェネ:
/// `<comment no="0000000001" time="UNIX" owner="0" service="youtubelive" handle="NAME">text</comment>`.
/// `handle` is always set (the viewer's nickname where the memory has one): the skins show
/// "0コメ" without it. `no` and `time` are given when the row is first written
/// (`CommentXMLDocument.stamp`): the readers tell new comments by them.
public struct CommentXMLRow: Sendable, Equatable {
    /// The bar's row id and its writer (login, lower case), which deletions and bans name; not
    /// written (empty for the rows a file had before the bar started).
    public let id: String
    public let user: String
    public let service: String
    public let handle: String
    public let text: String
    /// The streamer's own (`owner="1"`): only the seed row (HTML5コメジェネ hides owner rows).
    public private(set) var owner = false
    /// Set when first written (0 before).
    public private(set) var number = 0
    /// Unix seconds, set when first written (0 before).
    public private(set) var time = 0
    /// The element, escaped once when the row is stamped (the file is written again and again).
    public private(set) var xml = ""

    /// `no` as the readers compare it: HTML5コメジェネ compares the attributes as strings
    /// (`"10" > "9"` is false), so every number has the same width.
    static let numberWidth = 10

    public init(id: String, user: String = "", service: String, handle: String, text: String) {
        self.id = id
        self.user = user
        self.service = service
        self.handle = Self.inertHandle(handle.isEmpty ? "?" : handle)
        self.text = Self.inertText(text)
    }

    /// MultiCommentViewer's service names, which the skins know (its own where it has one).
    static let services = ["youtube": "youtubelive", "niconico": "nicolive", "twitcasting": "twicas",
                           "twitch": "twitch", "openrec": "openrec", "mirrativ": "mirrativ", "showroom": "showroom",
                           "kick": "kick"]

    /// A row of the bar as comment.xml writes it: a gift says what was given before its text.
    public init(line: ChatLine, platform: String) {
        var text = line.text
        if case .gift(let name, let count) = line.kind {
            let given = count > 1 ? "\(name) ×\(count)" : name
            text = text.isEmpty ? given : "\(given) \(text)"
        }
        self.init(id: line.id, user: (line.login ?? line.user).lowercased(), service: Self.services[platform] ?? platform,
                  handle: line.shownName, text: text)
    }

    /// A row as a file had it (kept when the bar starts writing there).
    init(number: Int, time: Int, service: String, handle: String, text: String) {
        self.init(id: "", service: service, handle: handle, text: text)
        stamp(number: number, time: time)
    }

    /// The one row of a new file. NiCommentGenerator never shows the rows of the first file it
    /// reads (it only remembers its last `time`): without this row, the first comments of a stream
    /// would be that file. Neither reader shows it: `time` 0 is older than any page, and
    /// HTML5コメジェネ hides an owner's row.
    static var seed: CommentXMLRow {
        var row = CommentXMLRow(id: "", service: "commentbar", handle: "CommentBar", text: "comment.xml")
        row.owner = true
        row.stamp(number: 0, time: 0)
        return row
    }

    mutating func stamp(number: Int, time: Int) {
        self.number = number
        self.time = time
        let digits = String(number)
        let no = String(repeating: "0", count: max(0, Self.numberWidth - digits.count)) + digits
        xml = "<comment no=\"\(no)\" time=\"\(time)\" owner=\"\(owner ? 1 : 0)\" service=\"\(Self.escaped(service))\" "
            + "handle=\"\(Self.escaped(handle))\">\(Self.escaped(text))</comment>"
    }

    /// The text as the skins show it. Never empty: HTML5コメジェネ reads `firstChild.nodeValue`,
    /// which throws on an empty element and stops its poll. A leading `/` marks a command there
    /// (niconico's `/info`, …), which it strips or hides: a viewer's `/` is the full-width `／`.
    static func inertText(_ text: String) -> String {
        guard let first = text.first else { return "…" }
        return first == "/" ? "／" + text.dropFirst() : text
    }

    /// `{#RRGGBB}` in a handle picks the name's colour and `[name]` a skin's picture in
    /// HTML5コメジェネ: a viewer's brackets are the full-width ones, shown the same, picking nothing.
    static func inertHandle(_ handle: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(handle.unicodeScalars.count)
        for scalar in handle.unicodeScalars {
            switch scalar {
            case "{": out += "｛"
            case "}": out += "｝"
            case "[": out += "［"
            case "]": out += "］"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Inert in XML 1.0 (`MarkupEscaping`): entities, and what XML cannot hold dropped.
    static func escaped(_ text: String) -> String { MarkupEscaping.escaped(text.unicodeScalars, for: .xml) }
}
