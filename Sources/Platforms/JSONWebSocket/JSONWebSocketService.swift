// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet

/// The `websocket` service: any relay that sends the JSON events of docs/feed-protocol.md.
public enum JSONWebSocketService {
    static let maxStreamIDLength = 256

    public static let description = ServiceDescription(
        id: "websocket", displayName: "WebSocket relay (JSON events)",
        streamIDHelp: ServiceHelp(en: "the stream id put into the server URL's {stream}",
                                   ja: "サーバー URL の {stream} に入る配信 ID"),
        urlPatterns: [.schemes(["ws", "wss"], shownAs: "a ws:// or wss:// relay", streamID: .server)],
        badge: .plain,
        memberBadges: ServiceDescription.feedProtocolMemberBadges,
        makeFeed: { request throws(FeedConfigError) in
            guard !request.server.isEmpty else {
                throw FeedConfigError("the websocket service needs a server, e.g. wss://relay.example/chat/{stream}")
            }
            if request.server.contains("{stream}"), request.streamID.isEmpty {
                throw FeedConfigError("the websocket server URL has {stream} but the stream id is empty")
            }
            let url = request.server.replacing("{stream}",
                                                          with: try pathComponent(request.streamID))
            return JSONWebSocketFeed(endpoint: try FeedEndpoint.parse(url, service: "websocket",
                                                                      schemes: ["wss", "ws"], namedBy: .streamer))
        })

    /// A stream id put into a WebSocket URL: percent-encoded, so anything but an overlong one is fine.
    static func pathComponent(_ id: String) throws(FeedConfigError) -> String {
        guard id.count <= maxStreamIDLength else {
            throw FeedConfigError("bad stream id: longer than \(maxStreamIDLength) characters")
        }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var out = ""
        for byte in id.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
