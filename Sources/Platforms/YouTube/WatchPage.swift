// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// What a watch page (or a channel's `/live` page) says about a stream: the InnerTube key
/// and context from `ytcfg`, the first live-chat continuation from `ytInitialData`, and the
/// stream's state from `ytInitialPlayerResponse`.
struct WatchPage: Sendable {
    var apiKey: String?
    var context: InnertubeContext?
    var initialData: InitialData?
    var player: PlayerResponse?

    /// How the page's stream stands, for the feed to act on.
    enum Availability: Sendable, Equatable {
        case live(LiveChatStart)
        /// Not started yet (scheduled, or a channel with no live stream now).
        case waiting(String)
        /// Over, or not a live stream at all.
        case ended(String)
        /// Private, members-only, removed, nonexistent, or chat turned off: retried slowly.
        case unavailable(String)
        /// Live, but the page named no chat continuation (and did not say chat is off): the
        /// chat's own page (`/live_chat?is_popout=1&v=ID`) may name it.
        case liveWithoutContinuation(LiveChatStart)
        /// Not a YouTube page with data (a consent or "sorry" page, a captcha, junk).
        case notAPage(String)
    }

    /// Where live chat starts, and what every InnerTube request needs.
    struct LiveChatStart: Sendable, Equatable {
        var videoID: String
        var apiKey: String?
        var context: InnertubeContext
        var continuation: String
        /// The stream's start (unix seconds), for the clock.
        var startTime: Double?
        /// The channel the video belongs to (`UC…`, `videoDetails.channelId`): every stream of a
        /// channel is one channel to the viewer memory. Nil when the page names none.
        var channelID: String? = nil
    }

    init(html page: [UInt8]) {
        let decoder = JSONDecoder()
        for json in EmbeddedJSON.objects(after: "ytcfg.set", in: page) {
            guard let config = try? decoder.decode(YTConfig.self, from: Data(json)) else { continue }
            apiKey = apiKey ?? config.INNERTUBE_API_KEY
            context = context ?? config.INNERTUBE_CONTEXT
        }
        // The names also occur in other scripts: the first object that decodes with content is the one.
        let dataCandidates = (EmbeddedJSON.objects(after: "ytInitialData", in: page, limit: 8)
            + EmbeddedJSON.objects(after: "ytInitialData\"]", in: page, limit: 8))
            .compactMap { try? decoder.decode(InitialData.self, from: Data($0)) }
        initialData = dataCandidates.first { $0.contents != nil } ?? dataCandidates.first
        let playerCandidates = EmbeddedJSON.objects(after: "ytInitialPlayerResponse", in: page, limit: 8)
            .compactMap { try? decoder.decode(PlayerResponse.self, from: Data($0)) }
        player = playerCandidates.first { $0.videoDetails != nil || $0.playabilityStatus != nil }
    }

    /// `isChannelPage`: the page came from `@name/live`, where "not live" means waiting for
    /// the channel's next stream rather than a video that is over.
    func availability(isChannelPage: Bool, name: String) -> Availability {
        guard initialData != nil || player != nil else {
            return .notAPage("YouTube sent a page without stream data (a consent or \"unusual traffic\" page?)")
        }
        let status = player?.playabilityStatus?.status ?? "OK"
        let reason = player?.playabilityStatus?.reason.map { ": \($0.prefix(120))" } ?? ""
        let details = player?.videoDetails
        let broadcast = player?.microformat?.playerMicroformatRenderer?.liveBroadcastDetails
        if details?.isUpcoming == true || status == "LIVE_STREAM_OFFLINE" {
            return .waiting(isChannelPage ? "\(name) has not started its stream" : "the stream has not started")
        }
        switch status {
        case "OK":
            break
        case "LOGIN_REQUIRED":
            return .unavailable("the video is private or needs a login\(reason)")
        case "ERROR":
            return .unavailable("the video is unavailable\(reason)")
        default:
            return .unavailable("the video cannot be watched (\(status.prefix(40)))\(reason)")
        }
        guard let details, let videoID = details.videoId, YouTubeStreamID.isVideoID(videoID) else {
            return isChannelPage ? .waiting("\(name) is not live") : .unavailable("no such video: \(name)")
        }
        let isLive = details.isLive == true || broadcast?.isLiveNow == true
        guard isLive else {
            if isChannelPage { return .waiting("\(name) is not live") }
            return .ended(details.isLiveContent == true || broadcast?.endTimestamp != nil
                          ? "the stream is over" : "not a live stream")
        }
        if let message = initialData?.chatUnavailableMessage { return .unavailable(message) }
        let startTime = broadcast?.startTimestamp.flatMap { try? Date($0, strategy: .iso8601) }?.timeIntervalSince1970
        let start = LiveChatStart(videoID: videoID, apiKey: apiKey, context: context ?? .web,
                                  continuation: initialData?.liveChatContinuation ?? "", startTime: startTime,
                                  channelID: details.channelId.flatMap { Self.isChannelID($0) ? $0 : nil })
        return start.continuation.isEmpty ? .liveWithoutContinuation(start) : .live(start)
    }

    /// A channel id as YouTube makes them: `UC` and 22 characters of the URL-safe base64 alphabet.
    static func isChannelID(_ text: String) -> Bool {
        text.utf8.count == 24 && text.hasPrefix("UC") && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    // MARK: The decoded paths

    // The names are ytcfg's own keys.
    struct YTConfig: Decodable {
        var INNERTUBE_API_KEY: String?
        var INNERTUBE_CONTEXT: InnertubeContext?
    }

    struct InitialData: Decodable, Sendable {
        var contents: Contents?
        /// The chat page's (`/live_chat`) data: the chat itself, with its first continuation.
        var continuationContents: LiveChatResponse.ContinuationContents?

        struct Contents: Decodable, Sendable { var twoColumnWatchNextResults: Results? }
        struct Results: Decodable, Sendable { var conversationBar: ConversationBar? }
        struct ConversationBar: Decodable, Sendable {
            var liveChatRenderer: LiveChatRenderer?
            var conversationBarRenderer: ConversationBarRenderer?
        }
        struct LiveChatRenderer: Decodable, Sendable {
            var continuations: [Skippable<ReloadContinuation>]?
            var header: Header?
        }
        struct ReloadContinuation: Decodable, Sendable { var reloadContinuationData: ContinuationData? }
        struct ContinuationData: Decodable, Sendable { var continuation: String? }
        struct Header: Decodable, Sendable { var liveChatHeaderRenderer: HeaderRenderer? }
        struct HeaderRenderer: Decodable, Sendable { var viewSelector: ViewSelector? }
        struct ViewSelector: Decodable, Sendable { var sortFilterSubMenuRenderer: SubMenu? }
        struct SubMenu: Decodable, Sendable { var subMenuItems: [Skippable<SubMenuItem>]? }
        struct SubMenuItem: Decodable, Sendable {
            var title: String?
            var continuation: ReloadContinuation?
        }
        struct ConversationBarRenderer: Decodable, Sendable { var availabilityMessage: AvailabilityMessage? }
        struct AvailabilityMessage: Decodable, Sendable { var messageRenderer: MessageRenderer? }
        struct MessageRenderer: Decodable, Sendable { var text: YouTubeText? }

        /// The "Live chat" (every message) view when the menu offers it, else "Top chat",
        /// else the renderer's own continuation.
        var liveChatContinuation: String? {
            let renderer = contents?.twoColumnWatchNextResults?.conversationBar?.liveChatRenderer
            let views = (renderer?.header?.liveChatHeaderRenderer?.viewSelector?.sortFilterSubMenuRenderer?.subMenuItems ?? [])
                .compactMap { $0.value?.continuation?.reloadContinuationData?.continuation }
            let own = (renderer?.continuations ?? []).compactMap { $0.value?.reloadContinuationData?.continuation }
            return [views.dropFirst().first, views.first, own.first].compactMap { $0 }.first { !$0.isEmpty }
        }

        /// The first continuation on the chat's own page.
        var chatPageContinuation: String? {
            LiveChatResponse(continuationContents: continuationContents).next?.continuation
        }

        /// YouTube's own words when chat is off ("Chat is disabled for this live stream.").
        var chatUnavailableMessage: String? {
            let text = contents?.twoColumnWatchNextResults?.conversationBar?.conversationBarRenderer?
                .availabilityMessage?.messageRenderer?.text?.plain
            return text.flatMap { $0.isEmpty ? nil : String($0.prefix(120)) }
        }
    }

    struct PlayerResponse: Decodable, Sendable {
        var playabilityStatus: PlayabilityStatus?
        var videoDetails: VideoDetails?
        var microformat: Microformat?

        struct PlayabilityStatus: Decodable, Sendable {
            var status: String?
            var reason: String?
        }
        struct VideoDetails: Decodable, Sendable {
            var videoId: String?
            var channelId: String?
            var isLive: Bool?
            var isUpcoming: Bool?
            var isLiveContent: Bool?
        }
        struct Microformat: Decodable, Sendable { var playerMicroformatRenderer: Renderer? }
        struct Renderer: Decodable, Sendable { var liveBroadcastDetails: LiveBroadcastDetails? }
        struct LiveBroadcastDetails: Decodable, Sendable {
            var isLiveNow: Bool?
            var startTimestamp: String?
            var endTimestamp: String?
        }
    }
}
