// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import FoundationEssentials

/// One text message from SHOWROOM's chat server (`wss://online.showroom-live.com`):
/// tab-separated fields, `MSG⇥KEY⇥{json}` for chat and `ACK⇥showroom` for our pings.
enum ShowroomLine: Equatable {
    case message(ShowroomPayload)
    /// The answer to our `PING⇥showroom`.
    case ack
    /// The server is done with this subscription.
    case quit

    struct ParseError: Error, Equatable {
        var reason: String
    }

    static func parse(_ text: String) throws(ParseError) -> ShowroomLine {
        let fields = text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        switch fields.first {
        case "MSG":
            guard fields.count == 3 else { throw ParseError(reason: "a MSG line without key and JSON") }
            do {
                return .message(try JSONDecoder().decode(ShowroomPayload.self, from: Data(fields[2].utf8)))
            } catch {
                throw ParseError(reason: "a MSG line whose JSON is not an object")
            }
        case "ACK":
            return .ack
        case "QUIT":
            return .quit
        default:
            let command = fields.first.map { String($0.prefix(16)) } ?? ""
            throw ParseError(reason: "unknown command \(String(reflecting: command))")
        }
    }
}

/// The JSON of a `MSG` line; `t` says what it is (1 comment, 2 gift, 8 telop, 101 end of
/// the broadcast, 104 a broadcast started, …). SHOWROOM sends `t` and the numbers as
/// numbers or as strings, so they are lenient.
struct ShowroomPayload: Decodable, Equatable {
    var t: LenientInt?
    /// The sender's name.
    var ac: String?
    /// A comment's text.
    var cm: String?
    /// The sender's user id.
    var u: LenientString?
    var createdAt: LenientInt?
    /// A gift's id and count.
    var g: LenientInt?
    var n: LenientInt?
    /// The room's banner text.
    var telop: String?

    enum CodingKeys: String, CodingKey {
        case t, ac, cm, u, g, n, telop
        case createdAt = "created_at"
    }
}
