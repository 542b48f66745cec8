// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// OPENREC's public API (no login): a broadcast's state, numeric movie id (the chat's
/// room), start time and viewers.
enum OpenrecAPI {
    /// `GET https://public.openrec.tv/external/api/v5/movies/ID`.
    struct Movie: Decodable, Sendable, Equatable {
        var movieID: LenientString?
        /// 0 before the broadcast, 1 on air, 2 over.
        var onairStatus: LenientInt?
        var startedAt: String?
        var liveViews: LenientInt?
        /// The broadcaster's channel (`channel.id`): every broadcast of it is one channel to the viewer memory.
        var channel: Channel?

        struct Channel: Decodable, Sendable, Equatable {
            var id: String?
        }

        enum CodingKeys: String, CodingKey {
            case movieID = "movie_id", onairStatus = "onair_status", startedAt = "started_at", liveViews = "live_views"
            case channel
        }

        /// `started_at` (ISO 8601 with an offset, e.g. `2018-08-23T09:37:50+09:00`) as unix seconds.
        var startTime: Double? {
            guard let startedAt, startedAt.utf8.count <= 64 else { return nil }
            let withColon = Date.ISO8601FormatStyle(timeZoneSeparator: .colon)
            guard let date = (try? withColon.parse(startedAt)) ?? (try? Date.ISO8601FormatStyle().parse(startedAt))
            else { return nil }
            return date.timeIntervalSince1970
        }
    }

    static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(15))

    static func movieURL(base: String, id: String) -> String {
        "\(base)/external/api/v5/movies/\(id)"
    }

    static func fetchMovie(_ api: WebAPI, id: String) async throws(WebFailure) -> Movie {
        try await api.getJSON(Movie.self, from: movieURL(base: api.base, id: id), limits: limits)
    }
}
