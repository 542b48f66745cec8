// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import FoundationEssentials

/// The JSON inside OPENREC's Socket.IO `message` events: `{"type":N,"data":{…}}`, with
/// `type` as a number or a string (0 chat, 1 viewers, 2 system message, 3 end of the
/// broadcast, 4 status, 5 start, 6-9 ban and moderator lists).
struct OpenrecChatMessage: Decodable, Equatable {
    struct Stamp: Decodable, Equatable {
        var imageURL: String?
        enum CodingKeys: String, CodingKey { case imageURL = "image_url" }
    }

    /// A paid "yell" (エール): `points` is what it cost.
    struct Yell: Decodable, Equatable {
        var name: String?
        var label: String?
        var points: LenientInt?
    }

    struct Payload: Decodable, Equatable {
        var chatID: LenientString?
        var message: String?
        var userName: String?
        var userKey: String?
        var userID: LenientString?
        var userColor: String?
        var isModerator: LenientInt?
        var stamp: Stamp?
        var yell: Yell?
        /// Type 1: the viewers now.
        var liveViewers: LenientInt?

        enum CodingKeys: String, CodingKey {
            case chatID = "chat_id", message, userName = "user_name", userKey = "user_key", userID = "user_id"
            case userColor = "user_color", isModerator = "is_moderator", stamp, yell, liveViewers = "live_viewers"
        }
    }

    var type: LenientInt?
    var data: Payload?

    static func parse(_ text: String) -> OpenrecChatMessage? {
        try? JSONDecoder().decode(OpenrecChatMessage.self, from: Data(text.utf8))
    }
}

/// OPENREC chat messages → bar events.
enum OpenrecChatMapper {
    static func map(_ message: OpenrecChatMessage) -> BroadcastChatAction {
        guard let type = message.type?.value else { return .unknown("a chat message without a type") }
        switch type {
        case 0:
            guard let data = message.data, let id = data.chatID?.value, !id.isEmpty else {
                return .unknown("a chat without an id")
            }
            let user = [data.userName, data.userKey].compactMap { $0 }.first { !$0.isEmpty } ?? "OPENREC"
            let login = data.userKey.flatMap { $0.isEmpty ? nil : $0 } ?? data.userID?.value
            let color = data.userColor.flatMap(RGBColor.init(hex:))
            let badges = data.isModerator?.value == 1 ? ["moderator/1"] : []
            let text = data.message ?? ""
            if let yell = data.yell, let points = yell.points?.value, points > 0 {
                // A paid message: its amount is the gift's name, the message its text.
                return .emit(.gift(ChatLine(id: "or-\(id)", user: user, login: login, text: text, color: color,
                                            badges: badges, kind: .gift(name: "\(grouped(points))エール", count: 1),
                                            highlight: highlight(points))))
            }
            let shown = text.isEmpty ? (data.stamp != nil ? "[スタンプ]" : "…") : text
            return .emit(.comment(ChatLine(id: "or-\(id)", user: user, login: login, text: shown, color: color,
                                           badges: badges)))
        case 1:
            guard let viewers = message.data?.liveViewers?.value, viewers >= 0 else { return .ignore }
            return .emit(.viewers(viewers))
        case 3:
            return .ended
        case 5:
            return .restart
        case 2, 4, 6, 7, 8, 9:
            return .ignore
        default:
            return .unknown("a chat message of unknown type \(type)")
        }
    }

    /// 1234567 → "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// Bigger yells stand out more, as on OPENREC's own chat.
    static func highlight(_ points: Int) -> RGBColor {
        switch points {
        case ..<500: return RGBColor(red: 0x1E, green: 0x88, blue: 0xE5)
        case ..<2000: return RGBColor(red: 0xFB, green: 0x8C, blue: 0x00)
        default: return RGBColor(red: 0xE5, green: 0x39, blue: 0x35)
        }
    }
}
