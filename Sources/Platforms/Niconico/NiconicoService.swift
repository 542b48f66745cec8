// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import FoundationEssentials
import CommentBarNet

/// The `niconico` service: a niconico live programme's comments, from its NDGR comment server.
public enum NiconicoService {
    static let defaultServer = "https://live.nicovideo.jp"

    public static let description = ServiceDescription(
        id: "niconico", displayName: "niconico live (ニコニコ生放送)",
        streamIDHelp: ServiceHelp(en: "lv…, a live.nicovideo.jp/watch/… URL, or a co…/ch…/user URL for its current programme",
                                   ja: "lv…、live.nicovideo.jp/watch/… の URL、またはコミュニティ・チャンネル・ユーザーの URL（そのとき放送中の番組）"),
        urlPatterns: [.web("niconico", hosts: ["live.nicovideo.jp", "live2.nicovideo.jp", "nicovideo.jp", "nico.ms"])],
        badge: PlatformBadge(rgb: 0x424242, sign: .screen),
        // Its picture CDN, and its comment servers (a seat's `viewUri` elsewhere is not followed).
        pictureHosts: ["*.nicovideo.jp", "*.nimg.jp"],
        makeFeed: { request throws(FeedConfigError) in
            let id = try NiconicoStreamID.parse(request.streamID)
            return NiconicoFeed(streamID: id, site: try site(request.server, web: request.web))
        })

    /// The site the watch pages come from: https only, without a trailing slash. The streamer
    /// typed a `server`, so it may be on their own machine or network.
    static func site(_ text: String, web: any WebFetching) throws(FeedConfigError) -> WebAPI {
        if text.isEmpty { return WebAPI(web: web, base: defaultServer) }
        guard text.lowercased().hasPrefix("https://"), text.utf8.count <= 512,
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
              let typed = StreamerServer(url: text) else {
            throw FeedConfigError("bad server for niconico: expected an https:// URL like \(defaultServer)")
        }
        var server = Substring(text)
        while server.hasSuffix("/") { server = server.dropLast() }
        return WebAPI(web: web, base: String(server), streamerServer: typed)
    }
}
