// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import DemoPlatform
import FilePlatform
import IRCPlatform
import JSONWebSocketPlatform
import NiconicoPlatform
import OPENRECPlatform
import SHOWROOMPlatform
import TwitCastingPlatform
import TwitchPlatform
import YouTubePlatform

/// Every service the renderer knows, in the order OBS lists them. The CLI, its help,
/// the OBS shim's service list (`commentbar services --c-header`) and the docs' check
/// all read this list: adding a platform is its folder under Sources/Platforms and one
/// line here.
public enum ServiceRegistry {
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
    ]

    public static var ids: [String] { all.map(\.id) }

    public static func service(id: String) -> ServiceDescription? {
        all.first { $0.id == id }
    }

    /// The feed the settings name, or a message for the bar and the OBS log.
    public static func makeFeed(service id: String, request: FeedRequest) throws(FeedConfigError) -> any CommentFeed {
        try checkText(request.streamID, name: "stream id")
        try checkText(request.server, name: "server")
        let service = try service(for: id)
        let feed = try service.makeFeed(request)
        return service.mayNameLocalFiles ? feed : LocalFileGuard(feed: feed, source: service.id)
    }

    /// The whole timeline of a replayable service (demo, file), for drawing any moment of it.
    public static func makeTimeline(service id: String, streamID: String) throws(FeedConfigError) -> FeedTimeline {
        try checkText(streamID, name: "stream id")
        let service = try service(for: id)
        guard let makeTimeline = service.makeTimeline else {
            let replayable = all.filter { $0.makeTimeline != nil }.map(\.id).joined(separator: " or ")
            throw FeedConfigError("service \"\(id)\" has no fixed timeline (use \(replayable))")
        }
        return try makeTimeline(streamID)
    }

    private static func service(for id: String) throws(FeedConfigError) -> ServiceDescription {
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
