import CommentBarCore
import CommentBarFeeds

/// The feeds that connect to a live chat: `twitch`, `irc` and `websocket`.
public enum NetworkFeeds {
    public static let services = ["twitch", "irc", "websocket"]

    /// Twitch chat over TLS WebSocket, unless `server` says otherwise.
    public static let twitchDefaultServer = "wss://irc-ws.chat.twitch.tv:443"

    /// The feed for a service, nil if the service is not a network one. Bad stream ids and
    /// servers are refused here, with a message fit for the bar and the OBS log.
    public static func make(service: String, streamID: String, server: String) throws(FeedConfigError)
        -> (any CommentFeed)?
    {
        switch service {
        case "twitch":
            let channel = try StreamID.twitchChannel(streamID)
            let endpoint = try FeedEndpoint.parse(server.isEmpty ? twitchDefaultServer : server, service: service,
                                                  schemes: ["wss", "ws", "ircs", "irc"])
            return IRCChatFeed(flavor: .twitch, channel: channel, endpoint: endpoint)
        case "irc":
            let channel = try StreamID.ircChannel(streamID)
            guard !server.isEmpty else {
                throw FeedConfigError("the irc service needs a server, e.g. ircs://irc.libera.chat:6697")
            }
            let endpoint = try FeedEndpoint.parse(server, service: service, schemes: ["ircs", "irc", "wss", "ws"])
            return IRCChatFeed(flavor: .irc, channel: channel, endpoint: endpoint)
        case "websocket":
            guard !server.isEmpty else {
                throw FeedConfigError("the websocket service needs a server, e.g. wss://relay.example/chat/{stream}")
            }
            if server.contains("{stream}"), streamID.isEmpty {
                throw FeedConfigError("the websocket server URL has {stream} but the stream id is empty")
            }
            let url = server.replacingOccurrences(of: "{stream}", with: try StreamID.webSocketPathComponent(streamID))
            return JSONWebSocketFeed(endpoint: try FeedEndpoint.parse(url, service: service, schemes: ["wss", "ws"]))
        default:
            return nil
        }
    }
}
