import CommentBarCore
import CommentBarFeeds
import Foundation
import NIOCore

/// The `websocket` service: each text message is one event in the JSON schema of
/// docs/feed-protocol.md, so any chat app or relay can feed the bar.
public struct JSONWebSocketFeed: CommentFeed {
    let endpoint: FeedEndpoint

    init(endpoint: FeedEndpoint) {
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
            let connection = try await FeedConnector.connect(to: endpoint, framing: .messages, tls: tls, problems: problems)
            liveSince = .now
            emit(.status(.live))
            return try await connection.executeThenClose { inbound, _ in
                for try await message in inbound {
                    do throws(FeedEventJSON.ParseError) {
                        switch try FeedEventJSON.parse(data: Data(message.readableBytesView)) {
                        case .event(let event, _): emit(event)
                        case .recording: break
                        }
                    } catch {
                        problems.note("bad JSON event: \(error.message)")
                    }
                }
                return outcome(.closed("the server closed the connection"))
            }
        } catch {
            return outcome(ReconnectLoop.end(for: error))
        }
    }
}
