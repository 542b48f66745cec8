// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import NIOCore

/// The `twitcasting` service: a user's current broadcast, read without a login.
/// `streamserver.php` names the user's current movie and whether it is live;
/// `eventpubsuburl.php` gives that movie's event WebSocket, whose messages are JSON
/// arrays of comments and items (gifts).
struct TwitCastingChatFeed: CommentFeed {
    let user: String
    /// `https://twitcasting.tv`, or the `server` setting.
    let api: WebAPI

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let problems = InputProblemLog(source: "twitcasting \(user)")
        // The movie last read live: when it is no longer live, its broadcast has ended.
        var liveMovie: String?
        await ResolvedChatLoop.run(emit: emit, resolve: {
            let resolution = await resolve(previouslyLive: liveMovie)
            if case .live(let target) = resolution { liveMovie = target.movieID }
            if case .ended = resolution { liveMovie = nil }
            return resolution
        }, connect: { target in
            try await read(target, emit: emit, problems: problems)
        })
    }

    struct Target: Sendable {
        var movieID: String
        var endpoint: FeedEndpoint
    }

    func resolve(previouslyLive: String?) async -> ResolvedChatLoop.Resolution<Target> {
        let url = TwitCastingAPI.streamServerURL(base: api.base, user: user)
        let movie: TwitCastingAPI.StreamServer.Movie
        do {
            guard let found = try await api.getJSON(TwitCastingAPI.StreamServer.self, from: url,
                                                    limits: TwitCastingAPI.limits).movie,
                  let id = found.id?.value, !id.isEmpty else {
                return .failed("ユーザーが見つかりません / no such TwitCasting user: \(user)",
                               retryAfter: ResolvedChatLoop.recheckInterval)
            }
            movie = found
            guard id.utf8.count <= 20, id.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
                return .failed("TwitCasting named a movie id that is not a number", retryAfter: .seconds(10))
            }
        } catch {
            if error.status == 404 {
                return .failed("ユーザーが見つかりません / no such TwitCasting user: \(user)",
                               retryAfter: ResolvedChatLoop.recheckInterval)
            }
            return .failed(error.description, retryAfter: ResolvedChatLoop.retryAfter(error))
        }
        let movieID = movie.id?.value ?? ""
        guard movie.live == true else {
            return previouslyLive == nil ? .notLive("配信前 / not live yet") : .ended(BroadcastChatAction.endedReason)
        }
        do {
            let answer = try await api.postFormJSON(TwitCastingAPI.EventPubSubURL.self,
                                                    to: TwitCastingAPI.eventPubSubURL(base: api.base),
                                                    form: "movie_id=\(movieID)", limits: TwitCastingAPI.limits)
            guard let endpoint = TwitCastingAPI.eventEndpoint(answer) else {
                return .failed("TwitCasting gave no usable comment server (wss://) for movie \(movieID)",
                               retryAfter: .seconds(10))
            }
            return .live(Target(movieID: movieID, endpoint: endpoint))
        } catch {
            return .failed(error.description, retryAfter: ResolvedChatLoop.retryAfter(error))
        }
    }

    /// Reads one movie's events until the server closes the WebSocket (the broadcast ended or
    /// the link was lost: the next check of the movie tells which).
    func read(_ target: Target, emit: @escaping @Sendable (FeedEvent) -> Void,
              problems: InputProblemLog) async throws -> ResolvedChatLoop.SessionEnd {
        let connection = try await ResolvedChatLoop.openWebSocket(target.endpoint, streamerServer: api.streamerServer,
                                                                 problems: problems)
        return try await connection.executeThenClose { inbound, _ in
            emit(.status(.live))
            let viewers = Task { await pollViewers(movieID: target.movieID, emit: emit, problems: problems) }
            defer { viewers.cancel() }
            for try await message in inbound {
                let events: [TwitCastingEvent]
                do throws(TwitCastingEvent.ParseError) {
                    events = try TwitCastingEvent.parseMessage(message.readableBytesView)
                } catch {
                    problems.note(error.reason)
                    continue
                }
                for event in events {
                    switch event.feedEvent() {
                    case .success(let feedEvent): emit(feedEvent)
                    case .failure(let error): problems.note(error.reason)
                    }
                }
            }
            return .closed("the comment server closed the connection")
        }
    }

    static let viewersInterval: Duration = .seconds(60)

    /// The viewer count while the chat is read, once a minute, through the frontend API
    /// with a viewer token (as the web player does). Without a token there is no count.
    func pollViewers(movieID: String, emit: @escaping @Sendable (FeedEvent) -> Void, problems: InputProblemLog) async {
        let token: String
        do {
            guard let found = try await api.postFormJSON(TwitCastingAPI.HappyToken.self,
                                                         to: TwitCastingAPI.happyTokenURL(base: api.base),
                                                         form: "movie_id=\(movieID)", limits: TwitCastingAPI.limits).token,
                  !found.isEmpty, found.utf8.count <= 512,
                  found.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                                   || "-_.~".unicodeScalars.contains($0)) }) else {
                problems.note("no usable viewer token: no viewer count")
                return
            }
            token = found
        } catch {
            problems.note("no viewer token: \(error.description)")
            return
        }
        let url = TwitCastingAPI.viewerStatusURL(base: api.base, movieID: movieID, token: token)
        while !Task.isCancelled {
            if let status = try? await api.getJSON(TwitCastingAPI.ViewerStatus.self, from: url, limits: TwitCastingAPI.limits),
               let current = status.movie?.viewers?.current?.value, current >= 0 {
                emit(.viewers(current))
            }
            do { try await Task.sleep(for: Self.viewersInterval) } catch { return }
        }
    }
}
