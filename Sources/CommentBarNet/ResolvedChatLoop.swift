// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarSupport
import FoundationEssentials

/// Keeps a feed on a platform whose chat address comes from a web API before every
/// connection (a broadcast key, a signed URL, a movie id): ask the API, then either wait
/// (not live yet), report the end of the broadcast, or connect and read the chat. Every
/// connection starts with a fresh answer, so a new broadcast or an expired key is picked up.
package enum ResolvedChatLoop {
    /// What the platform's API says about the stream right now.
    package enum Resolution<Target: Sendable>: Sendable {
        /// Live: read the chat at `Target`.
        case live(Target)
        /// Not started yet: `waiting(reason:)`, checked again after `recheckInterval`.
        case notLive(String)
        /// Over: `ended(reason:)`; checked again after `recheckInterval` in case a new one starts.
        case ended(String)
        /// The API failed or refused (no such stream, HTTP errors): `error`, retried after the
        /// backoff, but never sooner than `retryAfter` (30 s after a 429).
        case failed(String, retryAfter: Duration)
    }

    /// How one chat connection ended.
    package enum SessionEnd: Sendable, Equatable {
        /// Lost or closed: `reconnecting`, then a fresh answer from the API after the backoff.
        case closed(String)
        /// Something a retry may not fix: `error`, still retried after the backoff.
        case failed(String)
        /// The chat said the broadcast is over: `ended`, then checked like a stream not live.
        case ended(String)
    }

    /// How often a stream that is not live (or is over) is checked again: 60 s, or
    /// `COMMENTBAR_RECHECK_SECONDS` (whole seconds, at least 1) so tests need not wait a minute.
    package static let recheckInterval: Duration = {
        let text = ProcessInfo.processInfo.environment["COMMENTBAR_RECHECK_SECONDS"] ?? ""
        guard let seconds = Int(text), seconds >= 1 else { return .seconds(60) }
        return .seconds(min(seconds, 3600))
    }()

    /// Runs until the task is cancelled. `resolve` asks the API; `connect` opens the chat
    /// for a target and reads it until it ends (errors thrown by it become `reconnecting` or
    /// `error` with a short reason). `recheck` is the wait between checks of a stream that is
    /// not live (tests may shorten it, never below 1 s).
    package static func run<Target: Sendable>(
        emit: @escaping @Sendable (FeedEvent) -> Void,
        recheck: Duration = recheckInterval,
        resolve: () async -> Resolution<Target>,
        connect: (Target) async throws -> SessionEnd
    ) async {
        let recheck = max(recheck, .seconds(1))
        var backoff = Backoff()
        // After the end of a broadcast the bar keeps saying so while the stream stays off.
        var sawEnd = false
        // A stream that stays off is checked every minute; its state is shown once, not each time.
        var shown: FeedStatus? = .connecting
        func report(_ status: FeedStatus) {
            if status != shown { emit(.status(status)) }
            shown = status
        }
        emit(.status(.connecting))
        while !Task.isCancelled {
            let wait: Duration
            switch await resolve() {
            case .notLive(let reason):
                backoff.reset()
                if !sawEnd { report(.waiting(reason: reason)) }
                wait = recheck
            case .ended(let reason):
                backoff.reset()
                sawEnd = true
                report(.ended(reason: reason))
                wait = recheck
            case .failed(let message, let retryAfter):
                let delay = max(backoff.nextDelay(), retryAfter)
                report(.error(message: "\(message); retrying in \(seconds(delay))"))
                wait = delay
            case .live(let target):
                sawEnd = false
                // The session reports its own states (`live`); whatever follows is shown again.
                shown = nil
                let started = ContinuousClock.now
                let end: SessionEnd
                do {
                    end = try await connect(target)
                } catch {
                    switch ReconnectLoop.end(for: error) {
                    case .closed(let reason), .reconnectNow(let reason): end = .closed(reason)
                    case .failed(let reason): end = .failed(reason)
                    }
                }
                if Task.isCancelled { return }
                if ContinuousClock.now - started >= ReconnectLoop.stableAfter { backoff.reset() }
                switch end {
                case .ended(let reason):
                    backoff.reset()
                    sawEnd = true
                    report(.ended(reason: reason))
                    wait = recheck
                case .closed(let reason):
                    let delay = backoff.nextDelay()
                    report(.reconnecting(reason: "\(reason); retrying in \(seconds(delay))"))
                    wait = delay
                case .failed(let reason):
                    let delay = backoff.nextDelay()
                    report(.error(message: "\(reason); retrying in \(seconds(delay))"))
                    wait = delay
                }
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    /// The `retryAfter` for an HTTP failure: 30 s after a 429 (too many requests), else none.
    package static func retryAfter(_ failure: WebFailure) -> Duration {
        failure.status == 429 ? .seconds(30) : .zero
    }

    static func seconds(_ delay: Duration) -> String {
        let seconds = delay.inSeconds
        return seconds < 10 ? "\(Double(Int(seconds * 10)) / 10) s" : "\(Int(seconds)) s"
    }
}

extension ResolvedChatLoop {
    /// Opens a WebSocket chat (TLS per the endpoint, `COMMENTBAR_CA_FILE` and
    /// `COMMENTBAR_CONNECT_TO` honoured) with whole messages as its framing; `streamerServer` is
    /// the feed's typed server, if any (`FeedConnector.connect`).
    package static func openWebSocket(_ endpoint: FeedEndpoint, streamerServer: StreamerServer?,
                                      problems: InputProblemLog) async throws -> FeedConnector.MessageChannel {
        let tls = endpoint.usesTLS ? try TLSSettings.makeContext() : nil
        return try await FeedConnector.connect(to: endpoint, framing: .messages, tls: tls,
                                               connectTo: try ConnectTo.fromEnvironment(), streamerServer: streamerServer,
                                               problems: problems)
    }
}
