// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials
import CommentBarSupport
import Logging

/// The viewer count and the stream's start (for the clock), from Twitch's public GraphQL
/// endpoint as its web player and streamlink query it (the web client's Client-ID, no login).
/// Polled about every 60 s beside the chat; a failure leaves the bar's count at `–` and is
/// logged at most once an hour, and chat goes on either way.
struct TwitchMetadataPoller: Sendable {
    static let endpoint = "https://gql.twitch.tv/gql"
    /// The Client-ID of twitch.tv's own web client.
    static let clientID = "kimne78kx3ncx6brgo4mgz0z8hexemsp"
    static let interval: Duration = .seconds(60)
    static let logInterval: Duration = .seconds(3600)
    static let limits = WebLimits(maxBytes: 256 << 10, timeout: .seconds(20))

    /// The channel's login, as `TwitchChannel` checked it: letters, digits and `_` only, so
    /// it can stand in the query as it is.
    var login: String
    var web: any WebFetching

    struct Request: Encodable { var query: String }

    var request: Request {
        Request(query: "query { user(login: \"\(login)\") { stream { createdAt viewersCount } } }")
    }

    /// The GraphQL POST, as the web client sends it.
    func webRequest() -> WebRequest? {
        guard let body = try? JSONEncoder().encode(request) else { return nil }
        return WebRequest(url: Self.endpoint, method: .post, accept: "application/json",
                          headers: [(name: "Client-ID", value: Self.clientID), (name: "Content-Type", value: "application/json")],
                          body: Array(body), limits: Self.limits)
    }

    /// One poll: what the bar shows, or why not.
    func poll() async throws(WebFailure) -> StreamMetadata {
        guard let request = webRequest() else { return .unreadable("cannot encode the GraphQL query") }
        return StreamMetadata.read(try await web.fetchJSON(StreamMetadata.Response.self, request))
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let logger = Logger(label: "commentbar.feeds")
        let throttle = LogThrottle(interval: Self.logInterval)
        var lastStart: Double?
        while !Task.isCancelled {
            var wait = Self.interval
            var problem: String?
            do {
                switch try await poll() {
                case .live(let viewers, let start):
                    if let start, start != lastStart {
                        lastStart = start
                        emit(.start(time: start))
                    }
                    emit(.viewers(viewers))
                case .offline:
                    break
                case .unreadable(let reason):
                    problem = reason
                }
            } catch {
                if Task.isCancelled { return }
                problem = error.description
                if error.status == 429 { wait = .seconds(300) }
            }
            if let problem, throttle.admit() != nil {
                let cleaned = String(problem.unicodeScalars.prefix(200).filter { $0.value >= 0x20 && $0.value != 0x7F })
                logger.warning("twitch viewer count unavailable (chat is not affected): \(cleaned)")
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }
}

/// The part of the GraphQL answer the bar shows.
enum StreamMetadata: Equatable {
    case live(viewers: Int, start: Double?)
    /// The channel exists and is not streaming (`stream: null`).
    case offline
    case unreadable(String)

    struct Response: Decodable {
        var data: DataField?
        var errors: [Skippable<GraphQLError>]?
        struct DataField: Decodable { var user: User? }
        struct User: Decodable { var stream: Stream? }
        struct Stream: Decodable {
            var createdAt: String?
            var viewersCount: Int?
        }
        struct GraphQLError: Decodable { var message: String? }
    }

    /// An element of an array that may be of another shape: nil instead of a failed decode.
    struct Skippable<Value: Decodable>: Decodable {
        var value: Value?
        init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
    }

    /// What an answer says (`fetchJSON` has read it as GraphQL JSON).
    static func read(_ response: Response) -> StreamMetadata {
        if let message = response.errors?.compactMap({ $0.value?.message }).first {
            return .unreadable("gql.twitch.tv: \(message.prefix(120))")
        }
        guard let data = response.data else { return .unreadable("gql.twitch.tv: no data in the answer") }
        guard data.user != nil else { return .unreadable("gql.twitch.tv: no such channel") }
        guard let stream = data.user?.stream else { return .offline }
        guard let viewers = stream.viewersCount, viewers >= 0 else {
            return .unreadable("gql.twitch.tv: no viewer count in the answer")
        }
        let start = stream.createdAt.flatMap { try? Date($0, strategy: .iso8601) }?.timeIntervalSince1970
        return .live(viewers: viewers, start: start)
    }
}
