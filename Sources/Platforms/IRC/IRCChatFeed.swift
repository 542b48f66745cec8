// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import NIOCore

/// The `twitch` and `irc` services: joins one channel read-only and turns its chat into events.
package struct IRCChatFeed: CommentFeed {
    let flavor: IRCSession.Flavor
    /// `#channel`, already checked by `StreamID`.
    let channel: String
    let endpoint: FeedEndpoint
    /// Told the channel's numeric id (Twitch's `room-id` tag, on ROOMSTATE and chat lines)
    /// when it is first seen on a connection or changes; Twitch's feed loads the channel's
    /// third-party emotes with it.
    let roomSeen: (@Sendable (String) -> Void)?
    /// A server that has not let us join by then is dropped and retried.
    static let joinTimeout = TimeAmount.seconds(30)

    package init(flavor: IRCSession.Flavor, channel: String, endpoint: FeedEndpoint,
                 roomSeen: (@Sendable (String) -> Void)? = nil) {
        self.flavor = flavor
        self.channel = channel
        self.endpoint = endpoint
        self.roomSeen = roomSeen
    }

    package func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        await ReconnectLoop.keepConnected(to: endpoint, framing: .lines(keepalivePing: "PING :commentbar"), emit: emit) { connection, problems, live in
            let channel = connection.channel
            let watchdog = channel.eventLoop.scheduleTask(in: Self.joinTimeout) { channel.close(promise: nil) }
            defer { watchdog.cancel() }
            return try await connection.executeThenClose { inbound, outbound in
                var session = IRCSession(flavor: flavor, channel: self.channel)
                var room: String?
                for line in session.openingLines() { try await outbound.write(ByteBuffer(string: line)) }
                for try await buffer in inbound {
                    let message: IRCMessage
                    do throws(IRCMessage.ParseError) {
                        message = try IRCMessage.parse(String(buffer: buffer))
                    } catch {
                        problems.note(error.reason)
                        continue
                    }
                    if let roomSeen, let seen = TwitchTags.roomID(message.tags["room-id"]), seen != room,
                       message.params.first?.lowercased() == self.channel.lowercased() {
                        room = seen
                        roomSeen(seen)
                    }
                    for action in session.handle(message) {
                        switch action {
                        case .send(let line):
                            try await outbound.write(ByteBuffer(string: line))
                        case .emit(let event):
                            emit(event)
                        case .live:
                            watchdog.cancel()
                            live.start()
                            emit(.status(.live))
                        case .malformed(let reason):
                            problems.note(reason)
                        case .reconnectNow(let reason):
                            return .reconnectNow(reason)
                        case .disconnect(let reason):
                            return .closed(reason)
                        case .fail(let message):
                            return .failed(message)
                        }
                    }
                }
                return .closed(live.since == nil ? "the server closed the connection before the channel was joined"
                                                 : "the server closed the connection")
            }
        }
    }
}
