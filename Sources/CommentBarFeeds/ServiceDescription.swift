// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What a feed is made from: the source settings that name a stream.
public struct FeedRequest: Sendable, Equatable {
    public var streamID: String
    /// The `server` setting: a relay or server URL, or empty for the service's own.
    public var server: String

    public init(streamID: String, server: String = "") {
        self.streamID = streamID
        self.server = server
    }
}

/// One service (a platform, a relay or a local replay), as every platform target
/// exports it: the registry, the CLI, the OBS properties and the docs all read this.
public struct ServiceDescription: Sendable {
    public typealias MakeFeed = @Sendable (FeedRequest) throws(FeedConfigError) -> any CommentFeed
    public typealias MakeTimeline = @Sendable (String) throws(FeedConfigError) -> FeedTimeline

    /// The `service` setting's value, e.g. `twitch`.
    public var id: String
    /// The name shown in OBS's service list.
    public var displayName: String
    /// What the stream id is for this service, for help texts.
    public var streamIDHelp: String
    /// Makes the feed, or refuses the settings with a message for the bar and the log.
    public var makeFeed: MakeFeed
    /// For replayable services (demo, file): the whole timeline, so `render` can draw any moment.
    public var makeTimeline: MakeTimeline?
    /// Whether the feed's events may name local files (avatar, background): only for
    /// services whose events the streamer wrote (demo, file), never for a network feed.
    public var mayNameLocalFiles: Bool

    public init(id: String, displayName: String, streamIDHelp: String, makeFeed: @escaping MakeFeed,
                makeTimeline: MakeTimeline? = nil, mayNameLocalFiles: Bool = false) {
        self.id = id
        self.displayName = displayName
        self.streamIDHelp = streamIDHelp
        self.makeFeed = makeFeed
        self.makeTimeline = makeTimeline
        self.mayNameLocalFiles = mayNameLocalFiles
    }
}
