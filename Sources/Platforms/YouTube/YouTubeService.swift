// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// The `youtube` service: a live stream's chat, read without an API key as the web player does.
public enum YouTubeService {
    static let defaultBaseURL = "https://www.youtube.com"

    public static let description = ServiceDescription(
        id: "youtube", displayName: "YouTube",
        streamIDHelp: ServiceHelp(en: "a video id, a watch URL (https://www.youtube.com/watch?v=…, https://youtu.be/…, …/live/…) or a channel @handle (its current live stream)",
                                   ja: "動画 ID、視聴ページの URL（https://www.youtube.com/watch?v=…、https://youtu.be/…、…/live/…）、またはチャンネルの @ハンドル（そのときのライブ配信）"),
        urlPatterns: [.web("YouTube", hosts: ["youtube.com", "youtu.be"])],
        badge: PlatformBadge(rgb: 0xFF0033, sign: .play),
        makeFeed: { request throws(FeedConfigError) in
            let target = try YouTubeStreamID.parse(request.streamID)
            return YouTubeChatFeed(target: target, api: InnerTubeAPI(baseURL: try baseURL(request.server)))
        })

    /// The `server` setting replaces `https://www.youtube.com` for every request (tests, relays).
    static func baseURL(_ server: String) throws(FeedConfigError) -> String {
        guard !server.isEmpty else { return defaultBaseURL }
        guard let components = URLComponents(string: server), components.scheme?.lowercased() == "https",
              let host = components.host, !host.isEmpty, components.query == nil, components.user == nil else {
            throw FeedConfigError("the youtube server must be an https:// URL such as https://www.youtube.com (got \(String(reflecting: String(server.prefix(80)))))")
        }
        // The streamer typed it: it may be on their own machine or network.
        StreamerTypedHosts.allow(host: host, port: components.port ?? 443)
        var base = server
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
