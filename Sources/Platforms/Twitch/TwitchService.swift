// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import IRCPlatform

/// The `twitch` service: a channel's chat, read anonymously over Twitch's IRC WebSocket, and
/// its viewer count and start time from Twitch's public GraphQL endpoint, and the channel's
/// BetterTTV, FrankerFaceZ and 7TV emotes.
public enum TwitchService {
    /// Twitch chat over TLS WebSocket, unless `server` says otherwise.
    static let defaultServer = "wss://irc-ws.chat.twitch.tv:443"

    public static let description = ServiceDescription(
        id: "twitch", displayName: "Twitch",
        streamIDHelp: ServiceHelp(en: "the channel name", ja: "チャンネル名"),
        urlPatterns: [.web("Twitch", hosts: ["twitch.tv"], streamID: .firstPathComponent)],
        caseInsensitiveIDs: true,
        badge: PlatformBadge(rgb: 0x9146FF, sign: .bubble),
        // The `badges` tag of a subscriber, and of one of the channel's first subscribers.
        memberBadges: ["subscriber", "founder"],
        // Twitch's own emotes, then BetterTTV's, FrankerFaceZ's and 7TV's (each list only from its own).
        pictureHosts: ["static-cdn.jtvnw.net"] + ThirdPartyEmoteSets.Provider.allCases.flatMap(\.pictureHosts),
        makeFeed: { request throws(FeedConfigError) in
            let channel = try TwitchChannel.parse(request.streamID)
            let endpoint = try FeedEndpoint.parse(request.server.isEmpty ? defaultServer : request.server,
                                                  service: "twitch", schemes: ["wss", "ws", "ircs", "irc"],
                                                  namedBy: request.server.isEmpty ? .feed : .streamer)
            return TwitchFeed(channel: channel, endpoint: endpoint,
                              metadata: TwitchMetadataPoller(login: String(channel.dropFirst()), web: request.web),
                              web: request.web)
        })
}
