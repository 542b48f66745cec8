// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarSupport
import Logging
import Synchronization

/// A Twitch channel's BetterTTV, FrankerFaceZ and 7TV emotes: loaded beside the chat and
/// refreshed every 10 minutes, then used to turn matching words of each row into emotes.
///
/// Chat never waits for them: a row is matched against whatever is loaded when it arrives
/// (nothing at first, or when the APIs cannot be reached). A failed list keeps its last good
/// copy; failures are logged at most once an hour. The channel's lists need its numeric id,
/// which the chat's `room-id` tag gives (`roomSeen`).
final class ThirdPartyEmotes: Sendable {
    typealias Provider = ThirdPartyEmoteSets.Provider
    typealias Entry = ThirdPartyEmoteSets.Entry

    static let refreshInterval: Duration = .seconds(600)
    static let logInterval: Duration = .seconds(3600)

    private struct State {
        var room: String?
        var global: [Provider: [Entry]] = [:]
        var channel: [Provider: [Entry]] = [:]
        var map = EmoteCodeMap()
    }

    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// Where the lists come from (the feed's web).
    private let web: any WebFetching
    private let logger = Logger(label: "commentbar.feeds")
    private let throttle = LogThrottle(interval: ThirdPartyEmotes.logInterval)

    init(web: any WebFetching) {
        self.web = web
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The chat saw the channel's numeric id: a new one loads that channel's lists now.
    func roomSeen(_ room: String) {
        let isNew = state.withLock { state in
            guard state.room != room else { return false }
            state.room = room
            state.channel = [:]
            state.map = Self.merged(state)
            return true
        }
        if isNew { wake.yield() }
    }

    /// The row with its words that are third-party emote codes as emotes (Twitch's own first).
    func decorate(_ event: FeedEvent) -> FeedEvent {
        switch event {
        case .comment(var line):
            line.emotes = match(line)
            return .comment(line)
        case .gift(var line):
            line.emotes = match(line)
            return .gift(line)
        default:
            return event
        }
    }

    private func match(_ line: ChatLine) -> [Emote] {
        let map = state.withLock { $0.map }
        return map.adding(to: line.emotes, in: line.text)
    }

    /// How many codes are loaded now (for tests).
    var codeCount: Int { state.withLock { $0.map.count } }

    /// Loads the lists now, then every `refreshInterval` and whenever a new room is seen,
    /// until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wake] in
                while !Task.isCancelled {
                    wake.yield()
                    do { try await Task.sleep(for: Self.refreshInterval) } catch { break }
                }
            }
            for await _ in wakes {
                if Task.isCancelled { break }
                await refresh()
            }
            group.cancelAll()
        }
    }

    /// One round: every global list and, once the room is known, every channel list, side by side.
    func refresh() async {
        let room = state.withLock { $0.room }
        var requests: [(provider: Provider, room: String?)] = Provider.allCases.map { ($0, nil) }
        if let room { requests += Provider.allCases.map { ($0, room) } }
        let web = self.web
        let results = await withTaskGroup(of: (Provider, Bool, Result<[Entry], Problem>).self) { group in
            for request in requests {
                group.addTask {
                    (request.provider, request.room != nil, await Self.load(request.provider, room: request.room, web: web))
                }
            }
            var results: [(Provider, Bool, Result<[Entry], Problem>)] = []
            for await result in group { results.append(result) }
            return results
        }
        var problems: [String] = []
        let shouldLog: Bool = state.withLock { state in
            // A room seen while this round ran makes its channel answers stale: the next round loads them.
            let isCurrentRoom = state.room == room
            for (provider, isChannel, result) in results {
                switch result {
                case .success(let entries):
                    if !isChannel { state.global[provider] = entries } else if isCurrentRoom { state.channel[provider] = entries }
                case .failure(let problem):
                    problems.append(problem.text)
                }
            }
            state.map = Self.merged(state)
            return !problems.isEmpty
        }
        if shouldLog, throttle.admit() != nil {
            let text = problems.sorted().joined(separator: "; ")
            let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.prefix(400).map {
                $0.value < 0x20 || $0.value == 0x7F ? " " : $0
            }))
            logger.warning("twitch third-party emotes unavailable (chat is not affected): \(cleaned)")
        }
    }

    struct Problem: Error { var text: String }

    private static func load(_ provider: Provider, room: String?, web: any WebFetching) async -> Result<[Entry], Problem> {
        do {
            // No list needs more than the whole map holds.
            return .success(Array(try await ThirdPartyEmoteSets.fetch(provider, room: room, web: web)
                .prefix(EmoteCodeMap.maxCodes)))
        } catch {
            // A channel without an account on that service is a 404: it simply has no emotes there.
            if room != nil, error.status == 404 { return .success([]) }
            return .failure(Problem(text: "\(provider.rawValue): \(error.description)"))
        }
    }

    /// Channel lists before global ones; 7TV, then BetterTTV, then FrankerFaceZ within each.
    private static func merged(_ state: State) -> EmoteCodeMap {
        let order: [Provider] = [.sevenTV, .betterTTV, .frankerFaceZ]
        return EmoteCodeMap(order.map { state.channel[$0] ?? [] } + order.map { state.global[$0] ?? [] })
    }
}
