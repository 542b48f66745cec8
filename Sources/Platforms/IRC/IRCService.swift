// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The `irc` service: one channel of any IRCv3 server, read as a guest.
public enum IRCService {
    public static let description = ServiceDescription(
        id: "irc", displayName: "IRC",
        streamIDHelp: ServiceHelp(en: "the channel; the server setting names the server, e.g. ircs://irc.libera.chat:6697",
                                   ja: "チャンネル。サーバーはサーバー欄で指定します（例: ircs://irc.libera.chat:6697）"),
        urlPatterns: [.schemes(["irc", "ircs"], shownAs: "an ircs://host/#channel address", streamID: .read(IRCAddress.read))],
        badge: .plain,
        makeFeed: { request throws(FeedConfigError) in
            let channel = try ChannelName.irc(request.streamID)
            guard !request.server.isEmpty else {
                throw FeedConfigError("the irc service needs a server, e.g. ircs://irc.libera.chat:6697")
            }
            let endpoint = try FeedEndpoint.parse(request.server, service: "irc",
                                                  schemes: ["ircs", "irc", "wss", "ws"], namedBy: .streamer)
            return IRCChatFeed(flavor: .irc, channel: channel, endpoint: endpoint)
        })
}
