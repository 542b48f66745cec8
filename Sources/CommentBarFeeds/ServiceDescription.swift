// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What a feed is made from: the source settings that name a stream, and the web it reaches
/// (the renderer's HTTPS, or a test's double).
public struct FeedRequest: Sendable {
    public var streamID: String
    /// The `server` setting: a relay or server URL, or empty for the service's own.
    public var server: String
    /// Secrets from the source settings, by setting key (`mirrativ_session`): a platform reads
    /// only its own and never logs them.
    public var credentials: [String: String]
    /// Every HTTPS request of the feed goes through this.
    public var web: any WebFetching

    public init(streamID: String, server: String = "", credentials: [String: String] = [:], web: any WebFetching) {
        self.streamID = streamID
        self.server = server
        self.credentials = credentials
        self.web = web
    }
}

/// One service (a platform, a relay or a local replay), as every platform target
/// exports it: its own facts, so adding a platform touches nothing else. The registry,
/// the stream URL table, the rows' badges, the CLI, the OBS properties (through
/// `commentbar services --c-header`) and the docs' check all read this.
public struct ServiceDescription: Sendable {
    public typealias MakeFeed = @Sendable (FeedRequest) throws(FeedConfigError) -> any CommentFeed
    public typealias MakeTimeline = @Sendable (String) throws(FeedConfigError) -> FeedTimeline

    /// The `service` setting's value, e.g. `twitch`.
    public var id: String
    /// The name shown in OBS's service list.
    public var displayName: String
    /// What the stream id is for this service, for help texts (the CLI, OBS's properties).
    public var streamIDHelp: ServiceHelp
    /// The addresses a streamer pastes that pick this service (chat-downloader's `_VALID_URLS`);
    /// empty for the local replays, which are named `demo:` and `file:PATH`.
    public var urlPatterns: [StreamURLPattern]
    /// Whether the platform's ids ignore case (Twitch channels): they are kept lower case, so
    /// the same stream written two ways is one stream.
    public var caseInsensitiveIDs: Bool
    /// Its mark before each row's name when the bar reads several streams.
    public var badge: PlatformBadge
    /// The badges (as `ChatLine.badges` names them) that mark a member or subscriber of the
    /// channel, for a 参加型 queue's "members only"; nil: the platform does not say who is one,
    /// and the rule lets its viewers in.
    public var memberBadges: Set<String>?
    /// Where known, the hosts the platform really serves its pictures (emotes, badges) from:
    /// a picture URL an API or a relay names elsewhere is refused before any fetch, and its emote
    /// shows as text (CommentBarNet's `PictureHosts.allows`). `*.` names a host's subdomains.
    /// Empty: not known (the address policy still applies).
    public var pictureHosts: [String]
    /// Makes the feed, or refuses the settings with a message for the bar and the log.
    public var makeFeed: MakeFeed
    /// For replayable services (demo, file): the whole timeline, so `render` can draw any moment.
    public var makeTimeline: MakeTimeline?
    /// Whether the feed's events may name local files (avatar, background): only for
    /// services whose events the streamer wrote (demo, file), never for a network feed.
    public var mayNameLocalFiles: Bool

    /// The member badges of the feed protocol (docs/feed-protocol.md: Twitch's names, and
    /// YouTube's `member`), for the services whose events are written in it (relays, replays).
    public static let feedProtocolMemberBadges: Set<String> = ["member", "subscriber", "founder"]

    public init(id: String, displayName: String, streamIDHelp: ServiceHelp, urlPatterns: [StreamURLPattern],
                caseInsensitiveIDs: Bool = false, badge: PlatformBadge, memberBadges: Set<String>? = nil,
                pictureHosts: [String] = [],
                makeFeed: @escaping MakeFeed,
                makeTimeline: MakeTimeline? = nil, mayNameLocalFiles: Bool = false) {
        self.id = id
        self.displayName = displayName
        self.streamIDHelp = streamIDHelp
        self.urlPatterns = urlPatterns
        self.caseInsensitiveIDs = caseInsensitiveIDs
        self.badge = badge
        self.memberBadges = memberBadges
        self.pictureHosts = pictureHosts
        self.makeFeed = makeFeed
        self.makeTimeline = makeTimeline
        self.mayNameLocalFiles = mayNameLocalFiles
    }
}

/// A help text in the languages the plugin ships (plugin/data/locale: en-US, ja-JP).
public struct ServiceHelp: Sendable, Equatable {
    public var en: String
    public var ja: String

    public init(en: String, ja: String) {
        self.en = en
        self.ja = ja
    }
}
