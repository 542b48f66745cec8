// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The `kick` service: a Kick channel's chat, viewers and start, without a login.
public enum KickService {
    static let defaultAPI = "https://kick.com"

    public static let description = ServiceDescription(
        id: "kick", displayName: "Kick",
        streamIDHelp: ServiceHelp(en: "the channel URL (https://kick.com/NAME) or its name; kick:chatroom:ID when Kick refuses its channel page",
                                   ja: "チャンネルの URL（https://kick.com/NAME）または名前。チャンネル情報が拒否されるときは kick:chatroom:ID"),
        urlPatterns: [.web("Kick", hosts: ["kick.com"], streamID: .firstPathComponent)],
        caseInsensitiveIDs: true,
        badge: PlatformBadge(rgb: 0x53FC18, sign: .bubble),
        // `sender.identity.badges[].type` of a subscriber, and of one of the channel's first.
        memberBadges: ["subscriber", "founder"],
        makeFeed: { request throws(FeedConfigError) in
            let channel = try KickChannel.parse(request.streamID)
            let api = try WebAPI.parse(request.server, default: defaultAPI, service: "kick", web: request.web)
            return KickChatFeed(channel: channel, api: api)
        })
}
