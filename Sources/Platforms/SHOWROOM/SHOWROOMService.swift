// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The `showroom` service: a SHOWROOM room's live comments and gifts, without a login.
public enum SHOWROOMService {
    static let defaultAPI = "https://www.showroom-live.com"

    public static let description = ServiceDescription(
        id: "showroom", displayName: "SHOWROOM",
        streamIDHelp: ServiceHelp(en: "the room URL (https://www.showroom-live.com/r/ROOM_KEY) or its key",
                                   ja: "ルームの URL（https://www.showroom-live.com/r/ROOM_KEY）またはそのキー"),
        urlPatterns: [.web("SHOWROOM", hosts: ["showroom-live.com"])],
        badge: PlatformBadge(rgb: 0xD81B60, sign: .dot),
        makeFeed: { request throws(FeedConfigError) in
            let key = try ShowroomRoomKey.parse(request.streamID)
            let api = try WebAPI.parse(request.server, default: defaultAPI, service: "showroom", web: request.web)
            return ShowroomChatFeed(roomKey: key, api: api, requiresShowroomChatHost: request.server.isEmpty)
        })
}
