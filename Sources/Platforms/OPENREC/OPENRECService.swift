// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The `openrec` service: an OPENREC broadcast's chat and yells (エール), without a login.
public enum OPENRECService {
    static let defaultAPI = "https://public.openrec.tv"
    static let defaultChatHost = "chat.openrec.tv"

    public static let description = ServiceDescription(
        id: "openrec", displayName: "OPENREC",
        streamIDHelp: ServiceHelp(en: "the broadcast's URL (https://www.openrec.tv/live/ID) or its id",
                                   ja: "配信の URL（https://www.openrec.tv/live/ID）またはその ID"),
        urlPatterns: [.web("OPENREC", hosts: ["openrec.tv"])],
        badge: PlatformBadge(rgb: 0xEF6C00, sign: .ring),
        makeFeed: { request throws(FeedConfigError) in
            let id = try OpenrecMovieID.parse(request.streamID)
            let api = try WebAPI.parse(request.server, default: defaultAPI, service: "openrec", web: request.web)
            // A replaced server serves the chat too (same host and port); OPENREC's own is chat.openrec.tv.
            let chat = api.streamerServer ?? StreamerServer(host: defaultChatHost, port: 443)
            return OpenrecChatFeed(id: id, api: api, chatHost: chat.host, chatPort: chat.port)
        })
}
