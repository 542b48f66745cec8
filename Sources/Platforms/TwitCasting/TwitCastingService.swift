// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet

/// The `twitcasting` service: a TwitCasting user's live comments and items, without a login.
public enum TwitCastingService {
    static let defaultAPI = "https://twitcasting.tv"

    public static let description = ServiceDescription(
        id: "twitcasting", displayName: "TwitCasting",
        streamIDHelp: "the user's page (https://twitcasting.tv/USER) or user id",
        makeFeed: { request throws(FeedConfigError) in
            let user = try TwitCastingUser.parse(request.streamID)
            let base = try APIBase.parse(request.server, default: defaultAPI, service: "twitcasting")
            return TwitCastingChatFeed(user: user, apiBase: base)
        })
}
