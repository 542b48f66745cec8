import CommentBarCore
import CommentBarFeeds

/// The feeds that connect to a live chat: `twitch`, `irc` and `websocket`.
public enum NetworkFeeds {
    public static let services = ["twitch", "irc", "websocket"]

    /// The feed for a service, nil if the service is not a network one.
    public static func make(service: String, streamID: String, server: String) throws(FeedConfigError)
        -> (any CommentFeed)?
    {
        guard services.contains(service) else { return nil }
        throw FeedConfigError("service \"\(service)\" is not available yet")
    }
}
