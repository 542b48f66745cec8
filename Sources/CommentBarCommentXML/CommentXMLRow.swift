// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// One comment of comment.xml as MultiCommentViewer writes it for HTML5コメジェネ:
/// `<comment no="1" time="UNIX" owner="0" service="youtubelive" handle="NAME">text</comment>`.
/// `handle` is always set (the viewer's nickname where the memory has one): the skins show
/// "0コメ" without it.
public struct CommentXMLRow: Sendable, Equatable {
    /// The bar's row id and its writer (login, lower case), which deletions and bans name; not written.
    public let id: String
    public let user: String
    public let number: Int
    /// Unix seconds.
    public let time: Int
    public let service: String
    public let handle: String
    public let text: String

    /// The element, escaped once when the row is made (the file is written again and again).
    public let xml: String

    public init(id: String, user: String = "", number: Int, time: Int, service: String, handle: String, text: String) {
        self.id = id
        self.user = user
        self.number = number
        self.time = time
        self.service = service
        self.handle = handle
        self.text = text
        xml = "<comment no=\"\(number)\" time=\"\(time)\" owner=\"0\" service=\"\(Self.escaped(service))\" "
            + "handle=\"\(Self.escaped(handle))\">\(Self.escaped(text))</comment>"
    }

    /// MultiCommentViewer's service names, which the skins know (its own where it has one).
    static let services = ["youtube": "youtubelive", "niconico": "nicolive", "twitcasting": "twicas",
                           "twitch": "twitch", "openrec": "openrec", "mirrativ": "mirrativ", "showroom": "showroom",
                           "kick": "kick"]

    /// A row of the bar as comment.xml writes it: a gift says what was given before its text.
    public init(line: ChatLine, platform: String, number: Int, now: Double) {
        var text = line.text
        if case .gift(let name, let count) = line.kind {
            let given = count > 1 ? "\(name) ×\(count)" : name
            text = text.isEmpty ? given : "\(given) \(text)"
        }
        self.init(id: line.id, user: (line.login ?? line.user).lowercased(), number: number, time: Int(line.sentAt ?? now), service: Self.services[platform] ?? platform,
                  handle: line.shownName.isEmpty ? "?" : line.shownName, text: text)
    }

    /// `&`, `<`, `>`, quotes as entities; characters XML 1.0 cannot hold at all are dropped
    /// (the bar's text has no controls, but a file must parse whatever comes).
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                guard value >= 0x20, value != 0xFFFE, value != 0xFFFF else { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
