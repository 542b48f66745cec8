import CommentBarFeeds
import CommentBarNet

/// The `kick` service: a Kick channel's chat, viewers and start, without a login.
public enum KickService {
    static let defaultAPI = "https://kick.com"

    public static let description = ServiceDescription(
        id: "kick", displayName: "Kick",
        streamIDHelp: "the channel URL (https://kick.com/NAME), its name, or chatroom:ID",
        makeFeed: { request throws(FeedConfigError) in
            let channel = try KickChannel.parse(request.streamID)
            let base = try APIBase.parse(request.server, default: defaultAPI, service: "kick")
            return KickChatFeed(channel: channel, apiBase: base)
        })
}
