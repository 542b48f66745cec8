// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import NIOCore

/// The `openrec` service: a broadcast's chat, read without a login. The public movies API
/// says whether it is on air and gives its numeric movie id; the chat is Socket.IO over
/// Engine.IO 3 on a WebSocket (`wss://chat.openrec.tv/socket.io/?movieId=…&EIO=3&transport=websocket`).
struct OpenrecChatFeed: CommentFeed {
    let id: String
    /// `https://public.openrec.tv`, or the `server` setting.
    let api: WebAPI
    /// `chat.openrec.tv:443`, or the `server` setting's host and port.
    let chatHost: String
    let chatPort: Int

    static let defaultPingInterval: Duration = .seconds(25)

    struct Target: Sendable {
        var endpoint: FeedEndpoint
        var startTime: Double?
        var viewers: Int?
        /// The broadcaster's channel id, when the API names one.
        var channelID: String? = nil
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let problems = InputProblemLog(source: "openrec \(id)")
        await ResolvedChatLoop.run(emit: emit, resolve: { await resolve() }, connect: { target in
            // A broadcast's id is not its channel's: the viewer memory keeps viewers per channel.
            if let channel = target.channelID { emit(.channel(id: channel)) }
            if let start = target.startTime { emit(.start(time: start)) }
            if let viewers = target.viewers { emit(.viewers(viewers)) }
            return try await read(target, emit: emit, problems: problems)
        })
    }

    func resolve() async -> ResolvedChatLoop.Resolution<Target> {
        let movie: OpenrecAPI.Movie
        do {
            movie = try await OpenrecAPI.fetchMovie(api, id: id)
        } catch {
            if error.status == 404 {
                return .failed("配信が見つかりません / no such OPENREC broadcast: \(id)",
                               retryAfter: ResolvedChatLoop.recheckInterval)
            }
            return .failed(error.description, retryAfter: ResolvedChatLoop.retryAfter(error))
        }
        switch movie.onairStatus?.value {
        case 1:
            guard let movieID = movie.movieID?.value, !movieID.isEmpty, movieID.utf8.count <= 20,
                  movieID.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                  let endpoint = chatEndpoint(movieID: movieID) else {
                return .failed("OPENREC gave no numeric movie id for \(id)", retryAfter: .seconds(10))
            }
            return .live(Target(endpoint: endpoint, startTime: movie.startTime,
                                viewers: movie.liveViews?.value.flatMap { $0 >= 0 ? $0 : nil },
                                channelID: movie.channel?.id.flatMap(FeedEvent.channelID)))
        case 2:
            return .ended(BroadcastChatAction.endedReason)
        default:
            return .notLive("配信前 / not live yet")
        }
    }

    func chatEndpoint(movieID: String) -> FeedEndpoint? {
        let host = chatHost.contains(":") ? "[\(chatHost)]" : chatHost
        return try? FeedEndpoint.parse("wss://\(host):\(chatPort)/socket.io/?movieId=\(movieID)&EIO=3&transport=websocket",
                                       service: "openrec", schemes: ["wss"], namedBy: .feed)
    }

    /// Reads the chat until it ends: answers the Engine.IO handshake's ping schedule, shows
    /// `live` once the Socket.IO namespace is joined, and maps `message` events.
    func read(_ target: Target, emit: @escaping @Sendable (FeedEvent) -> Void,
              problems: InputProblemLog) async throws -> ResolvedChatLoop.SessionEnd {
        let connection = try await ResolvedChatLoop.openWebSocket(target.endpoint, streamerServer: api.streamerServer,
                                                                 problems: problems)
        return try await connection.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                defer { group.cancelAll() }
                var pinging = false
                for try await message in inbound {
                    let packet: EngineIOPacket
                    do throws(EngineIOPacket.ParseError) {
                        packet = try EngineIOPacket.parse(String(buffer: message))
                    } catch {
                        problems.note(error.reason)
                        continue
                    }
                    switch packet {
                    case .open(let handshake):
                        // Engine.IO 3: the client pings at the server's interval, or the server drops it.
                        guard !pinging else { continue }
                        pinging = true
                        let interval = Self.pingInterval(milliseconds: handshake.pingInterval)
                        group.addTask {
                            while true {
                                try await Task.sleep(for: interval)
                                try await outbound.write(ByteBuffer(string: "2"))
                            }
                        }
                    case .ping:
                        try await outbound.write(ByteBuffer(string: "3"))
                    case .pong, .noop, .upgrade:
                        continue
                    case .close:
                        return .closed("the chat server closed the session")
                    case .message(.connect):
                        emit(.status(.live))
                    case .message(.disconnect):
                        return .closed("the chat server left the chat")
                    case .message(.error(let reason)):
                        return .failed("the chat server refused the chat: \(reason.prefix(120))")
                    case .message(.event(let name, let arguments)):
                        guard name == "message" else {
                            problems.note("a Socket.IO event \(String(reflecting: String(name.prefix(32)))) that is not a message")
                            continue
                        }
                        guard case .some(.some(let text)) = arguments.first, let chat = OpenrecChatMessage.parse(text) else {
                            problems.note("a message event without its JSON")
                            continue
                        }
                        if let end = OpenrecChatMapper.map(chat).perform(emit: emit, problems: problems) { return end }
                    }
                }
                return .closed("the chat server closed the connection")
            }
        }
    }

    /// The handshake's ping interval, kept between 1 s and 5 min; 25 s without one.
    static func pingInterval(milliseconds: Int?) -> Duration {
        guard let milliseconds, milliseconds > 0 else { return defaultPingInterval }
        return .milliseconds(min(max(milliseconds, 1000), 300_000))
    }
}
