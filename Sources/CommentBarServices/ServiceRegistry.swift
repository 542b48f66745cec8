// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import DemoPlatform
import FilePlatform
import IRCPlatform
import JSONWebSocketPlatform
import KickPlatform
import MirrativPlatform
import NiconicoPlatform
import OPENRECPlatform
import SHOWROOMPlatform
import TwitCastingPlatform
import TwitchPlatform
import YouTubePlatform

/// The services a renderer knows, in the order OBS lists them, and everything made from
/// their descriptions: the stream URL table, the rows' badges, the help texts. The CLI, its
/// help, the OBS shim's service list and help (`commentbar services --c-header`) and the
/// docs' check all read `product`: adding a platform is its folder under Sources/Platforms
/// and one line in `all`.
public struct ServiceRegistry: Sendable {
    /// The product's services.
    public static let all: [ServiceDescription] = [
        DemoService.description,
        FileService.description,
        TwitchService.description,
        YouTubeService.description,
        IRCService.description,
        JSONWebSocketService.description,
        SHOWROOMService.description,
        TwitCastingService.description,
        OPENRECService.description,
        NiconicoService.description,
        KickService.description,
        MirrativService.description,
    ]

    /// The product's registry.
    public static let product = ServiceRegistry(all)

    public let services: [ServiceDescription]
    /// The URLs a streamer may paste, from every service's patterns.
    public let streamURLs: StreamURLTable

    /// A registry of `services` (the product's, or a test's with a service of its own).
    public init(_ services: [ServiceDescription]) {
        self.services = services
        streamURLs = StreamURLTable(services)
    }

    public var ids: [String] { services.map(\.id) }

    public func service(id: String) -> ServiceDescription? {
        services.first { $0.id == id }
    }

    /// The mark of the rows of a stream of `service`; grey for a stream without a service.
    public func badge(service id: String) -> PlatformBadge {
        service(id: id)?.badge ?? .plain
    }

    /// The badges that mark the service's members, nil where it does not say.
    public func memberBadges(service id: String) -> Set<String>? {
        service(id: id)?.memberBadges
    }

    /// The feed the settings name, or a message for the bar and the OBS log.
    public func makeFeed(service id: String, request: FeedRequest) throws(FeedConfigError) -> any CommentFeed {
        try Self.checkText(request.streamID, name: "stream id")
        try Self.checkText(request.server, name: "server")
        let service = try service(for: id)
        let feed = try service.makeFeed(request)
        return service.mayNameLocalFiles ? feed : LocalFileGuard(feed: feed, source: service.id)
    }

    /// The whole timeline of a replayable service (demo, file), for drawing any moment of it.
    public func makeTimeline(service id: String, streamID: String) throws(FeedConfigError) -> FeedTimeline {
        try Self.checkText(streamID, name: "stream id")
        let service = try service(for: id)
        guard let makeTimeline = service.makeTimeline else {
            let replayable = services.filter { $0.makeTimeline != nil }.map(\.id).joined(separator: " or ")
            throw FeedConfigError("service \"\(id)\" has no fixed timeline (use \(replayable))")
        }
        return try makeTimeline(streamID)
    }

    private func service(for id: String) throws(FeedConfigError) -> ServiceDescription {
        guard let service = service(id: id) else {
            throw FeedConfigError("unknown service \(String(reflecting: String(id.prefix(64)))) (known: \(ids.joined(separator: ", ")))")
        }
        return service
    }

    /// A NUL would cut the value short where it meets C (a file path): refused with a
    /// message, never cleaned. Other characters are each service's to judge.
    private static func checkText(_ value: String, name: String) throws(FeedConfigError) {
        if value.unicodeScalars.contains("\0") {
            throw FeedConfigError("the \(name) contains a NUL character")
        }
    }
}
