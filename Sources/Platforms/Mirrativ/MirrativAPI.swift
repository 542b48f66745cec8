// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// Mirrativ's web API (www.mirrativ.com), read with the streamer's own session: the answers
/// this feed reads, decoded only where it needs them, every field optional.
enum MirrativAPI {
    static let host = "www.mirrativ.com"

    /// `GET /api/live/live?live_id=ID`: one live, with its chat server's key.
    struct Live: Decodable, Sendable, Equatable {
        var liveID: String?
        var isLive: Bool?
        var bcsvrKey: String?
        var broadcastKey: String?
        var onlineUserNum: LenientInt?
        var startedAt: LenientInt?
        var status: Status?
        /// The streamer (`owner.user_id`): every live of one user is one channel to the viewer memory.
        var owner: Owner?

        struct Owner: Decodable, Sendable, Equatable {
            var userID: LenientString?
            enum CodingKeys: String, CodingKey { case userID = "user_id" }
        }

        enum CodingKeys: String, CodingKey {
            case liveID = "live_id", isLive = "is_live", bcsvrKey = "bcsvr_key", broadcastKey = "broadcast_key"
            case onlineUserNum = "online_user_num", startedAt = "started_at", status, owner
        }

        /// The key the chat server's `SUB` takes.
        var chatKey: String? { [bcsvrKey, broadcastKey].compactMap { $0 }.first { !$0.isEmpty } }
    }

    /// `GET /api/user/profile?user_id=ID`: `onlive` names the streamer's live, if any.
    struct Profile: Decodable, Sendable, Equatable {
        struct OnLive: Decodable, Sendable, Equatable {
            var liveID: String?
            enum CodingKeys: String, CodingKey { case liveID = "live_id" }
        }
        var onlive: OnLive?
        var status: Status?
    }

    /// Every answer's `status`: `ok` 1, or an error (`error_code` 401/403: not logged in).
    struct Status: Decodable, Sendable, Equatable {
        var ok: LenientInt?
        var errorCode: LenientInt?
        enum CodingKeys: String, CodingKey { case ok, errorCode = "error_code" }

        var needsLogin: Bool { [401, 403].contains(errorCode?.value ?? 0) }
    }

    enum Failure: Error, Equatable {
        /// No session, or one Mirrativ no longer accepts.
        case needsLogin
        case http(WebFailure)
    }

    /// Small answers; no redirect is followed, so the session never goes to another host.
    static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(15), maxRedirects: 0)

    static func liveURL(base: String, liveID: String) -> String { "\(base)/api/live/live?live_id=\(liveID)" }
    static func profileURL(base: String, userID: String) -> String { "\(base)/api/user/profile?user_id=\(userID)" }

    static func fetch<Answer: Decodable>(_ type: Answer.Type, from url: String, web: any WebFetching,
                                         session: MirrativSession) async throws(Failure) -> Answer {
        do {
            return try await web.getJSON(type, from: url, limits: limits, headers: [(name: "Cookie", value: session.cookie)])
        } catch {
            if error.status == 401 || error.status == 403 { throw .needsLogin }
            throw .http(error)
        }
    }
}
