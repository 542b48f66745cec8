// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// SHOWROOM's public web API (no login): the answers this feed reads, decoded only
/// where it needs them, every field optional.
enum ShowroomAPI {
    /// `GET /api/room/status?room_url_key=KEY`.
    struct RoomStatus: Decodable, Sendable, Equatable {
        var roomID: LenientString?
        var isLive: Bool?
        var broadcastKey: String?
        var broadcastHost: String?
        var startedAt: LenientInt?
        var roomName: String?

        enum CodingKeys: String, CodingKey {
            case roomID = "room_id", isLive = "is_live", broadcastKey = "broadcast_key"
            case broadcastHost = "broadcast_host", startedAt = "started_at", roomName = "room_name"
        }
    }

    /// `GET /api/live/gift_list?room_id=ID`: gifts by category (`normal`, `enquete`, …).
    struct GiftList: Decodable, Sendable {
        var normal: [Gift]?
        var enquete: [Gift]?
    }

    struct Gift: Decodable, Sendable {
        var giftID: LenientInt?
        var giftName: String?

        enum CodingKeys: String, CodingKey {
            case giftID = "gift_id", giftName = "gift_name"
        }
    }

    /// `GET /api/room/profile?room_id=ID`: `view_num` is the current broadcast's viewers.
    struct RoomProfile: Decodable, Sendable {
        var viewNum: LenientInt?

        enum CodingKeys: String, CodingKey {
            case viewNum = "view_num"
        }
    }

    /// Every answer is small: a larger one is refused.
    static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(15))

    static func statusURL(base: String, roomKey: String) -> String {
        "\(base)/api/room/status?room_url_key=\(roomKey)"
    }

    static func giftListURL(base: String, roomID: String) -> String {
        "\(base)/api/live/gift_list?room_id=\(roomID)"
    }

    static func profileURL(base: String, roomID: String) -> String {
        "\(base)/api/room/profile?room_id=\(roomID)"
    }

    /// Gift id → name, from both categories; names cleaned and bounded by ChatLine later.
    static func giftNames(_ list: GiftList) -> [Int: String] {
        var names: [Int: String] = [:]
        for gift in (list.normal ?? []) + (list.enquete ?? []) {
            if let id = gift.giftID?.value, let name = gift.giftName, !name.isEmpty, names.count < 10_000 {
                names[id] = name
            }
        }
        return names
    }
}
