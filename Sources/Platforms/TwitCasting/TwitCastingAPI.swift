// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// TwitCasting's web endpoints a browser viewer uses (no login): the current movie of a
/// user, and the address of its event WebSocket.
enum TwitCastingAPI {
    /// `GET /streamserver.php?target=USER&mode=client&player=pc_web`: `movie.id` and `movie.live`.
    struct StreamServer: Decodable, Sendable, Equatable {
        struct Movie: Decodable, Sendable, Equatable {
            var id: LenientString?
            var live: Bool?
        }

        var movie: Movie?
    }

    /// `POST /eventpubsuburl.php` (form `movie_id=ID`): the event WebSocket's URL.
    struct EventPubSubURL: Decodable, Sendable, Equatable {
        var url: String?
    }

    /// `POST /happytoken.php` (form `movie_id=ID`): a viewer token for the frontend API.
    struct HappyToken: Decodable, Sendable, Equatable {
        var token: String?
    }

    /// `GET https://frontendapi.twitcasting.tv/movies/ID/status/viewer?token=T`: `movie.viewers.current`.
    struct ViewerStatus: Decodable, Sendable, Equatable {
        struct Movie: Decodable, Sendable, Equatable {
            var viewers: Viewers?
        }

        struct Viewers: Decodable, Sendable, Equatable {
            var current: LenientInt?
        }

        var movie: Movie?
    }

    static let limits = WebLimits(maxBytes: 1 << 20, timeout: .seconds(15))

    static func streamServerURL(base: String, user: String) -> String {
        "\(base)/streamserver.php?target=\(TwitCastingUser.queryValue(user))&mode=client&player=pc_web"
    }

    static func eventPubSubURL(base: String) -> String {
        "\(base)/eventpubsuburl.php"
    }

    static func happyTokenURL(base: String) -> String {
        "\(base)/happytoken.php"
    }

    /// The frontend API lives on its own host; a replaced `server` serves it too.
    static func viewerStatusURL(base: String, movieID: String, token: String) -> String {
        let frontend = base == TwitCastingService.defaultAPI ? "https://frontendapi.twitcasting.tv" : base
        return "\(frontend)/movies/\(movieID)/status/viewer?token=\(token)"
    }

    /// The event WebSocket for an `eventpubsuburl.php` answer: `wss://` only, with
    /// `gift=1` added so that items (gifts) are sent as well as comments.
    static func eventEndpoint(_ answer: EventPubSubURL) -> FeedEndpoint? {
        guard let url = answer.url, url.lowercased().hasPrefix("wss://"), url.utf8.count <= 2048 else { return nil }
        let withGifts = url + (url.contains("?") ? "&gift=1" : "?gift=1")
        return try? FeedEndpoint.parse(withGifts, service: "twitcasting", schemes: ["wss"], namedBy: .feed)
    }
}
