import CommentBarFeeds
import CommentBarNetFeeds

/// Every service the renderer knows, local and network.
enum Feeds {
    static func make(service: String, streamID: String, server: String) throws(FeedConfigError) -> any CommentFeed {
        if let feed = try LocalFeeds.make(service: service, streamID: streamID) { return feed }
        if let feed = try NetworkFeeds.make(service: service, streamID: streamID, server: server) { return feed }
        throw FeedConfigError("unknown service \"\(service)\" (known: demo, file, \(NetworkFeeds.services.joined(separator: ", ")))")
    }
}
