// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// Kick's public channel JSON (`GET https://kick.com/api/v2/channels/SLUG`), decoded only
/// where the bar needs it, every field optional.
enum KickAPI {
    struct Channel: Decodable, Sendable, Equatable {
        var id: Int?
        var slug: String?
        var chatroom: Chatroom?
        var livestream: Livestream?
    }

    struct Chatroom: Decodable, Sendable, Equatable {
        var id: Int?
    }

    struct Livestream: Decodable, Sendable, Equatable {
        var id: Int?
        var isLive: Bool?
        var viewerCount: Int?
        /// `2024-05-01 18:00:00` (UTC).
        var startTime: String?
        var createdAt: String?

        enum CodingKeys: String, CodingKey {
            case id, isLive = "is_live", viewerCount = "viewer_count", startTime = "start_time", createdAt = "created_at"
        }

        /// The start in unix seconds, from `start_time` or else `created_at`.
        var startedAt: Double? {
            (startTime ?? createdAt).flatMap(KickTime.unixSeconds)
        }
    }

    /// Every answer is small: a larger one is refused.
    static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(15))

    static func channelURL(base: String, slug: String) -> String {
        "\(base)/api/v2/channels/\(slug)"
    }

    static func fetchChannel(_ api: WebAPI, slug: String) async throws(WebFailure) -> Channel {
        try await api.getJSON(Channel.self, from: channelURL(base: api.base, slug: slug), limits: limits)
    }
}

/// Kick's times: `2024-05-01 18:00:00` (channel JSON, UTC) or `2024-05-01T18:00:00+00:00`
/// / `…Z` / `….000000Z` (chat events).
enum KickTime {
    static func unixSeconds(_ text: String) -> Double? {
        guard text.utf8.count >= 19, text.utf8.count <= 40 else { return nil }
        var normalized = text.replacing(" ", with: "T")
        if normalized.utf8.count == 19 { normalized += "Z" }
        if let fraction = normalized.firstIndex(of: "."),
           let zone = normalized[fraction...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
            normalized.removeSubrange(fraction..<zone)
        }
        guard let date = try? Date(normalized, strategy: .iso8601) else { return nil }
        return date.timeIntervalSince1970
    }
}
