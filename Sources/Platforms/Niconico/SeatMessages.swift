// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import FoundationEssentials

/// The seat WebSocket's JSON messages (the watch page's `webSocketUrl`): what to send, and
/// what each received message asks of the feed. Only the paths used are decoded.
enum SeatMessages {
    /// Asks for a seat and the message server; no video stream is requested.
    static let startWatching = #"{"type":"startWatching","data":{"reconnect":false}}"#
    static let pong = #"{"type":"pong"}"#
    static let keepSeat = #"{"type":"keepSeat"}"#

    /// Seats are kept at least this often whatever the server says (and never more than once a second).
    static let keepSeatRange = 1...600

    enum Action: Equatable {
        case send(String)
        /// `seat`: send keepSeat every this many seconds.
        case keepSeat(every: Int)
        /// `messageServer`: the NDGR view URI.
        case messageServer(viewURI: String)
        case viewers(Int)
        /// `disconnect` with END_PROGRAM: the programme is over.
        case programmeEnded
        /// `disconnect` for another reason, or `reconnect`: open a new seat.
        case reconnect(String)
        /// `error`: the server refused (not on air, no permission…).
        case refused(String)
        /// A message the feed has no use for.
        case ignore
        /// Not a message of this protocol.
        case unknown(String)
    }

    private struct Message: Decodable {
        struct Payload: Decodable {
            var keepIntervalSec: Double?
            var viewUri: String?
            var viewers: Double?
            var reason: String?
            var code: String?
        }
        var type: String?
        var data: Payload?
    }

    /// Known messages that carry nothing for the bar.
    static let ignored: Set<String> = ["serverTime", "stream", "room", "rooms", "schedule", "akashic", "eventState",
                                       "postCommentResult", "tagUpdated", "taxonomy", "enquete", "enqueteresult",
                                       "moderator", "userProgramStatus"]

    static func handle(_ bytes: some Collection<UInt8>) -> Action {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(bytes)), let type = message.type else {
            return .unknown("a seat message that is not the expected JSON")
        }
        let data = message.data
        switch type {
        case "ping":
            return .send(pong)
        case "seat":
            guard let seconds = data?.keepIntervalSec, seconds.isFinite else { return .unknown("a seat without keepIntervalSec") }
            return .keepSeat(every: Int(min(max(seconds, Double(keepSeatRange.lowerBound)), Double(keepSeatRange.upperBound))))
        case "messageServer":
            guard let uri = data?.viewUri, uri.lowercased().hasPrefix("https://") else {
                return .unknown("a messageServer without an https viewUri")
            }
            // Only niconico's own hosts: a viewUri naming another (a LAN address) is not followed.
            guard PictureHosts.allows(uri, hosts: NiconicoService.description.pictureHosts) else {
                return .unknown("a messageServer whose viewUri is not on nicovideo.jp")
            }
            return .messageServer(viewURI: uri)
        case "statistics":
            guard let viewers = data?.viewers, viewers.isFinite, viewers >= 0 else { return .ignore }
            return .viewers(Int(min(viewers, 1e12)))
        case "disconnect":
            let reason = shown(data?.reason ?? "")
            return reason == "END_PROGRAM" ? .programmeEnded : .reconnect("the server closed the seat (\(reason))")
        case "reconnect":
            return .reconnect("the server asked for a new seat")
        case "error":
            return .refused(shown(data?.code ?? ""))
        case let other where ignored.contains(other):
            return .ignore
        default:
            return .unknown("an unknown seat message type \"\(shown(type))\"")
        }
    }

    /// A server-given word for a log line or the bar: short, letters, digits and _ only.
    static func shown(_ text: String) -> String {
        String(text.unicodeScalars.prefix(40).filter { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" }
            .map(Character.init))
    }
}
