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
        // A channel member's badge (its custom picture: `ChatActionMapper.badges`).
        memberBadges: ["member"],
        // Custom emoji and avatars.
        pictureHosts: ["yt3.ggpht.com", "yt4.ggpht.com", "*.ggpht.com", "*.googleusercontent.com"],
        makeFeed: { request throws(FeedConfigError) in
            let target = try YouTubeStreamID.parse(request.streamID)
            return YouTubeChatFeed(target: target, api: InnerTubeAPI(web: try web(request)))
        })

    /// The `server` setting replaces `https://www.youtube.com` for every request (tests, relays);
    /// the streamer typed it, so it may be on their own machine or network.
    static func web(_ request: FeedRequest) throws(FeedConfigError) -> WebAPI {
        do {
            return try WebAPI.parse(request.server, default: defaultBaseURL, service: "youtube", web: request.web)
        } catch {
            throw FeedConfigError("the youtube server must be an https:// URL such as https://www.youtube.com (got \(String(reflecting: String(request.server.prefix(80)))))")
        }
    }
}
