// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials
import NIOCore

/// The `websocket` service: each text message is one event in the JSON schema of
/// docs/feed-protocol.md, so any chat app or relay can feed the bar.
struct JSONWebSocketFeed: CommentFeed {
    let endpoint: FeedEndpoint

    init(endpoint: FeedEndpoint) {
        self.endpoint = endpoint
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        await ReconnectLoop.keepConnected(to: endpoint, framing: .messages, emit: emit) { connection, problems, live in
            live.start()
            emit(.status(.live))
            return try await connection.executeThenClose { inbound, _ in
                for try await message in inbound {
                    do throws(FeedEventJSON.ParseError) {
                        switch try FeedEventJSON.parse(data: Data(message.readableBytesView)) {
                        // The relay's own status is what it says of its upstream, not our connection's.
                        case .event(.status(let status), _): emit(.relayStatus(status))
                        case .event(let event, _): emit(event)
                        case .recording: break
                        }
                    } catch {
                        problems.note("bad JSON event: \(error.message)")
                    }
                }
                return .closed("the server closed the connection")
            }
        }
    }
}
