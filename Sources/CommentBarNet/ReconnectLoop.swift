// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import NIOCore
import NIOPosix
import NIOSSL

/// How one connection ended, and how long it had been live.
package struct ConnectionOutcome: Sendable {
    package enum End: Sendable, Equatable {
        /// Lost or refused: shown as `reconnecting`, retried after the backoff.
        case closed(String)
        /// The server asked for a reconnect (Twitch RECONNECT): retried at once.
        case reconnectNow(String)
        /// Something a retry may not fix (TLS, a refused join): shown as `error`, still retried.
        case failed(String)
    }

    package var end: End
    package var liveFor: Duration?
}

/// Keeps a feed connected: runs one connection after another until the task is
/// cancelled, reporting status and waiting out the backoff in between.
package enum ReconnectLoop {
    /// A connection live this long resets the backoff; a shorter one keeps it growing,
    /// so a server that drops every client at once is not hammered.
    static let stableAfter: Duration = .seconds(10)

    static func run(emit: @escaping @Sendable (FeedEvent) -> Void,
                    connectOnce: () async -> ConnectionOutcome) async {
        // From 0.5 s, doubling to 30 s, with jitter so that many bars do not reconnect in step.
        var backoff = Backoff()
        var lastImmediateRetry: ContinuousClock.Instant?
        emit(.status(.connecting))
        while !Task.isCancelled {
            let outcome = await connectOnce()
            if Task.isCancelled { return }
            if let liveFor = outcome.liveFor, liveFor >= stableAfter { backoff.reset() }
            let delay: Duration
            switch outcome.end {
            case .reconnectNow(let reason):
                let now = ContinuousClock.now
                if lastImmediateRetry.map({ now - $0 >= stableAfter }) ?? true {
                    lastImmediateRetry = now
                    delay = .zero
                    emit(.status(.reconnecting(reason: reason)))
                } else {
                    delay = backoff.nextDelay()
                    emit(.status(.reconnecting(reason: "\(reason); retrying in \(ResolvedChatLoop.seconds(delay))")))
                }
            case .closed(let reason):
                delay = backoff.nextDelay()
                emit(.status(.reconnecting(reason: "\(reason); retrying in \(ResolvedChatLoop.seconds(delay))")))
            case .failed(let message):
                delay = backoff.nextDelay()
                emit(.status(.error(message: "\(message); retrying in \(ResolvedChatLoop.seconds(delay))")))
            }
            if delay > .zero {
                do { try await Task.sleep(for: delay) } catch { return }
            }
        }
    }

    /// BoringSSL's reasons are long and name source files: keep the reason code only.
    static func tlsReason(_ text: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "TLS: the server's certificate is not trusted (a private CA can be added with \(TLSSettings.extraCAFileVariable))"
        }
        if let range = text.firstRange(of: "OPENSSL_internal:") {
            let code = text[range.upperBound...].prefix(while: { $0 != " " && $0 != "]" })
            return "TLS failed: \(code)"
        }
        return "TLS failed: \(text.prefix(120))"
    }

    /// A short, human reason for a connection error, and whether a retry may fix it.
    static func end(for error: any Error) -> ConnectionOutcome.End {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return end(for: first.error) }
            return .closed("cannot resolve \(error.host)")
        case let error as IOError:
            return .closed(String(cString: strerror(error.errnoCode)).lowercased())
        case ChannelError.connectTimeout:
            return .closed("connection timed out")
        case let error as ChannelError:
            return .closed("connection lost (\(error))")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .failed("TLS: the server's certificate is not for this host name")
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            return .failed(tlsReason("\(error)"))
        case let error as TLSSettings.SetupError:
            return .failed(error.description)
        case let error as ConnectTo.SetupError:
            return .failed(error.description)
        case let error as FeedConnector.UpgradeRefused:
            return .failed(error.description)
        case let error as FeedConnector.MessageTooLarge:
            return .closed(error.description)
        default:
            return .closed("connection lost (\(error))")
        }
    }
}

/// When a connection went live, so the loop can tell how long it lasted.
package final class LiveSpan {
    package private(set) var since: ContinuousClock.Instant?
    package func start() { since = .now }
}

extension ReconnectLoop {
    /// Keeps `endpoint` connected: each attempt opens the connection (with TLS when
    /// the endpoint says so) and hands it to `session`, whose return or error ends it.
    package static func keepConnected(
        to endpoint: FeedEndpoint, framing: FeedConnector.Framing, emit: @escaping @Sendable (FeedEvent) -> Void,
        session: (FeedConnector.MessageChannel, InputProblemLog, LiveSpan) async throws -> ConnectionOutcome.End
    ) async {
        let problems = InputProblemLog(source: endpoint.description)
        await run(emit: emit) {
            let live = LiveSpan()
            let end: ConnectionOutcome.End
            do {
                let tls = endpoint.usesTLS ? try TLSSettings.makeContext() : nil
                let connection = try await FeedConnector.connect(to: endpoint, framing: framing, tls: tls,
                                                                 connectTo: try ConnectTo.fromEnvironment(),
                                                                 streamerServer: nil, problems: problems)
                end = try await session(connection, problems, live)
            } catch {
                end = self.end(for: error)
            }
            return ConnectionOutcome(end: end, liveFor: live.since.map { ContinuousClock.now - $0 })
        }
    }
}
