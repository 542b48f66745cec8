// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The `twitcasting` service: a TwitCasting user's live comments and items, without a login.
public enum TwitCastingService {
    static let defaultAPI = "https://twitcasting.tv"

    public static let description = ServiceDescription(
        id: "twitcasting", displayName: "TwitCasting",
        streamIDHelp: ServiceHelp(en: "the user's page (https://twitcasting.tv/USER) or user id",
                                   ja: "ユーザーのページ（https://twitcasting.tv/USER）またはユーザー ID"),
        urlPatterns: [.web("TwitCasting", hosts: ["twitcasting.tv"])],
        badge: PlatformBadge(rgb: 0x1E88E5, sign: .ring),
        makeFeed: { request throws(FeedConfigError) in
            let user = try TwitCastingUser.parse(request.streamID)
            let api = try WebAPI.parse(request.server, default: defaultAPI, service: "twitcasting", web: request.web)
            return TwitCastingChatFeed(user: user, api: api)
        })
}
