import CommentBarCore
import CommentBarFeeds
import NIOCore

/// The `twitch` and `irc` services: joins one channel read-only and turns its chat into events.
public struct IRCChatFeed: CommentFeed {
    let flavor: IRCSession.Flavor
    /// `#channel`, already checked by `StreamID`.
    let channel: String
    let endpoint: FeedEndpoint
    /// A server that has not let us join by then is dropped and retried.
    static let joinTimeout = TimeAmount.seconds(30)

    init(flavor: IRCSession.Flavor, channel: String, endpoint: FeedEndpoint) {
        self.flavor = flavor
        self.channel = channel
        self.endpoint = endpoint
    }

    public func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let problems = InputProblemLog(source: endpoint.description)
        await ReconnectLoop.run(emit: emit) {
            await connectOnce(emit: emit, problems: problems)
        }
    }

    private func connectOnce(emit: @escaping @Sendable (FeedEvent) -> Void,
                             problems: InputProblemLog) async -> ConnectionOutcome {
        var liveSince: ContinuousClock.Instant?
        func outcome(_ end: ConnectionOutcome.End) -> ConnectionOutcome {
            ConnectionOutcome(end: end, liveFor: liveSince.map { ContinuousClock.now - $0 })
        }
        do {
            let tls = endpoint.usesTLS ? try TLSSettings.makeContext() : nil
            let connection = try await FeedConnector.connect(to: endpoint, framing: .lines, tls: tls, problems: problems)
            let channel = connection.channel
            let watchdog = channel.eventLoop.scheduleTask(in: Self.joinTimeout) { channel.close(promise: nil) }
            defer { watchdog.cancel() }
            return try await connection.executeThenClose { inbound, outbound in
                var session = IRCSession(flavor: flavor, channel: self.channel)
                for line in session.openingLines() { try await outbound.write(ByteBuffer(string: line)) }
                for try await buffer in inbound {
                    let message: IRCMessage
                    do throws(IRCMessage.ParseError) {
                        message = try IRCMessage.parse(String(buffer: buffer))
                    } catch {
                        problems.note(error.reason)
                        continue
                    }
                    for action in session.handle(message) {
                        switch action {
                        case .send(let line):
                            try await outbound.write(ByteBuffer(string: line))
                        case .emit(let event):
                            emit(event)
                        case .live:
                            watchdog.cancel()
                            liveSince = .now
                            emit(.status(.live))
                        case .malformed(let reason):
                            problems.note(reason)
                        case .reconnectNow(let reason):
                            return outcome(.reconnectNow(reason))
                        case .disconnect(let reason):
                            return outcome(.closed(reason))
                        case .fail(let message):
                            return outcome(.failed(message))
                        }
                    }
                }
                return outcome(.closed(liveSince == nil ? "the server closed the connection before the channel was joined"
                                                        : "the server closed the connection"))
            }
        } catch {
            return outcome(ReconnectLoop.end(for: error))
        }
    }
}
