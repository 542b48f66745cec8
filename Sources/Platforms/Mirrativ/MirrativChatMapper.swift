// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import FoundationEssentials

/// One text message from Mirrativ's chat server (`wss://online.mirrativ.com/`): tab-separated
/// fields, `MSG⇥KEY⇥{json}` for chat, `ACK` for our pings. `t` in the JSON says what it is:
/// 1 a comment, 35 a gift, 3 someone joined (not shown), others nothing for the bar.
struct MirrativPayload: Decodable, Equatable {
    var t: LenientInt?
    /// The sender's name.
    var ac: String?
    /// A comment's text.
    var cm: String?
    /// The sender's user id.
    var u: LenientString?
    /// A gift's name and count.
    var giftTitle: String?
    var count: LenientInt?

    enum CodingKeys: String, CodingKey {
        case t, ac, cm, u, count
        case giftTitle = "gift_title"
    }

    /// The JSON of a `MSG` line; nil for `ACK` and the like. Throws the reason for a line
    /// that claims to be a message and is not.
    static func parse(line: String) throws(MirrativChatMapper.ParseError) -> MirrativPayload? {
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.first == "MSG" else { return nil }
        guard fields.count == 3 else { throw .init(reason: "a MSG line without key and JSON") }
        do {
            return try JSONDecoder().decode(MirrativPayload.self, from: Data(fields[2].utf8))
        } catch {
            throw .init(reason: "a MSG line whose JSON is not the expected object")
        }
    }
}

/// Turns Mirrativ chat messages into bar events: comments and gifts (with their names and
/// counts); joins and the rest are not shown.
struct MirrativChatMapper {
    struct ParseError: Error, Equatable {
        var reason: String
    }

    /// 3: joined, 7/8: follows and shares, 38: the app being played, … (nothing for the bar).
    static let ignoredKinds: Set<Int> = [3, 7, 8, 38]

    private var sequence = 0

    mutating func map(_ payload: MirrativPayload) -> FeedEvent? {
        let name = (payload.ac ?? "").isEmpty ? "Mirrativ" : payload.ac ?? ""
        switch payload.t?.value {
        case 1:
            let text = payload.cm ?? ""
            return .comment(ChatLine(id: nextID("c"), user: name, login: payload.u?.value, text: text.isEmpty ? "…" : text))
        case 35:
            let gift = (payload.giftTitle ?? "").isEmpty ? "ギフト" : payload.giftTitle ?? ""
            let count = max(1, min(payload.count?.value ?? 1, 1_000_000))
            return .gift(ChatLine(id: nextID("g"), user: name, login: payload.u?.value, text: "",
                                  kind: .gift(name: gift, count: count)))
        default:
            return nil
        }
    }

    private mutating func nextID(_ prefix: String) -> String {
        sequence += 1
        return "mr-\(prefix)\(sequence)"
    }
}
