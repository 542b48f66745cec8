// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials
import Synchronization

/// YouTube live chat without an API key, as the web client reads it: the watch page (once
/// per connection) gives the InnerTube key, context and first continuation; then
/// `get_live_chat` is polled, each response naming the next continuation and how long to
/// wait. A channel (`@name`) is watched through its `/live` page until a stream starts.
struct YouTubeChatFeed: CommentFeed {
    var target: YouTubeStreamID
    var api: InnerTubeAPI

    /// Polls are never closer than 1 s, and a long `timeoutMs` is cut to 8 s (as
    /// chat-downloader does) so that a comment is shown soon after it is sent.
    static let minimumPoll = 1000
    static let maximumPoll = 8000

    static func pollDelay(timeoutMs: Int?) -> Duration {
        .milliseconds(min(maximumPoll, max(minimumPoll, timeoutMs ?? 5000)))
    }

    enum ChatEnd: Sendable, Equatable {
        /// No continuation: the stream and its chat are over.
        case ended
        case failed(String, status: Int?)
        case cancelled
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let status = StatusReporter(emit: emit)
        let problems = InputProblemLog(source: "youtube \(target.shown)")
        var pace = RetryPace()
        let isChannel: Bool
        if case .channel = target { isChannel = true } else { isChannel = false }
        status.report(.connecting)
        while !Task.isCancelled {
            let delay: Duration
            do {
                switch try await availability(isChannel: isChannel) {
                case .live(let start):
                    switch await readChat(start, status: status, emit: emit, problems: problems, pace: &pace) {
                    case .cancelled:
                        return
                    case .ended:
                        status.report(.ended(reason: "the stream is over"))
                        delay = isChannel ? RetryPace.channelCheck : pace.unavailable()
                    case .failed(let reason, let code):
                        delay = pace.failed(status: code)
                        status.report(.reconnecting(reason: "\(reason); retrying in \(RetryPace.shown(delay))"))
                    }
                case .waiting(let reason):
                    delay = isChannel ? RetryPace.channelCheck : pace.notStarted()
                    status.report(.waiting(reason: reason))
                case .ended(let reason):
                    delay = isChannel ? RetryPace.channelCheck : pace.unavailable()
                    status.report(.ended(reason: reason))
                case .unavailable(let reason):
                    delay = pace.unavailable()
                    status.report(.error(message: "\(reason); checking again in \(RetryPace.shown(delay))"))
                case .liveWithoutContinuation:
                    delay = pace.unavailable()
                    status.report(.error(message: "live chat is off for this stream; checking again in \(RetryPace.shown(delay))"))
                case .notAPage(let reason):
                    problems.note(reason)
                    delay = pace.failed(status: 429)
                    status.report(.error(message: "\(reason); retrying in \(RetryPace.shown(delay))"))
                }
            } catch {
                delay = pace.failed(status: error.status)
                let reason = error.status == 429 ? "YouTube says too many requests (HTTP 429)" : error.description
                status.report(.reconnecting(reason: "\(reason); retrying in \(RetryPace.shown(delay))"))
            }
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }

    /// The stream's state from its page (one request), or from the chat's own page as well
    /// when the watch page names no chat continuation.
    private func availability(isChannel: Bool) async throws(WebFailure) -> WatchPage.Availability {
        let availability = try await api.page(target).availability(isChannelPage: isChannel, name: target.shown)
        guard case .liveWithoutContinuation(var start) = availability else { return availability }
        guard let continuation = try await api.chatPage(videoID: start.videoID).initialData?.chatPageContinuation else {
            return .unavailable("live chat is off for this stream")
        }
        start.continuation = continuation
        return .live(start)
    }

    /// Reads chat (and the viewer count beside it) until the chat ends or fails.
    private func readChat(_ start: WatchPage.LiveChatStart, status: StatusReporter,
                          emit: @escaping @Sendable (FeedEvent) -> Void, problems: InputProblemLog,
                          pace: inout RetryPace) async -> ChatEnd {
        status.forgetLive()
        // Before the first comment and `live`: the viewer memory keeps this stream's viewers on its channel.
        if let channel = start.channelID { emit(.channel(id: channel)) }
        let viewerProblems = InputProblemLog(source: "youtube viewers \(start.videoID)", interval: .seconds(600))
        let end = await withTaskGroup(of: ChatEnd?.self) { group in
            group.addTask {
                await ViewerPoller(api: api, start: start).run(emit: emit, problems: viewerProblems)
                return nil
            }
            group.addTask {
                await pollChat(start, status: status, emit: emit, problems: problems)
            }
            var end = ChatEnd.cancelled
            for await result in group {
                if let result {
                    end = result
                    break
                }
            }
            group.cancelAll()
            return end
        }
        // Only a connection that read chat starts the back-off over: a server that fails
        // every poll keeps it growing.
        if status.wasLive { pace.reset() }
        return end
    }

    private func pollChat(_ start: WatchPage.LiveChatStart, status: StatusReporter,
                          emit: @escaping @Sendable (FeedEvent) -> Void, problems: InputProblemLog) async -> ChatEnd {
        let decoder = JSONDecoder()
        var continuation = start.continuation
        var live = false
        // The first answer carries the chat's recent messages (as the web client shows on
        // opening): the bar starts with them, marked as history.
        var isFirstAnswer = true
        while !Task.isCancelled {
            let body: [UInt8]
            do {
                body = try await api.liveChat(start, continuation: continuation)
            } catch {
                if Task.isCancelled { return .cancelled }
                problems.note("get_live_chat: \(error.description)")
                return .failed(error.status == 429 ? "YouTube says too many requests (HTTP 429)" : error.description,
                               status: error.status)
            }
            let response: LiveChatResponse
            do {
                response = try decoder.decode(LiveChatResponse.self, from: Data(body))
            } catch {
                problems.note("get_live_chat: not chat JSON (\(body.count) bytes)")
                return .failed("YouTube sent a chat response that is not JSON", status: nil)
            }
            guard let next = response.next else { return .ended }
            if !live {
                live = true
                if let time = start.startTime { emit(.start(time: time)) }
                status.report(.live)
            }
            if response.undecodedActions > 0 {
                problems.note("get_live_chat: \(response.undecodedActions) actions of an unknown shape")
            }
            for action in response.actions {
                for event in ChatActionMapper.events(for: action) {
                    emit(isFirstAnswer ? ChatActionMapper.asHistory(event) : event)
                }
            }
            isFirstAnswer = false
            do { try await Task.sleep(for: Self.pollDelay(timeoutMs: next.timeoutMs)) } catch { return .cancelled }
            continuation = next.continuation
        }
        return .cancelled
    }
}

/// Emits a status only when it differs from the last one (a channel checked each minute
/// does not repeat "waiting"), and remembers whether chat was read on this connection.
final class StatusReporter: Sendable {
    private let emit: @Sendable (FeedEvent) -> Void
    private let last = Mutex<(status: FeedStatus?, wasLive: Bool)>((nil, false))

    init(emit: @escaping @Sendable (FeedEvent) -> Void) { self.emit = emit }

    /// Whether `.live` was reported since the last `forgetLive()`.
    var wasLive: Bool { last.withLock { $0.wasLive } }

    func forgetLive() { last.withLock { $0.wasLive = false } }

    func report(_ status: FeedStatus) {
        let changed = last.withLock { last in
            if status == .live { last.wasLive = true }
            guard last.status != status else { return false }
            last.status = status
            return true
        }
        if changed { emit(.status(status)) }
    }
}
