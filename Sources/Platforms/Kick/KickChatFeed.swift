// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import NIOCore
import Synchronization

/// The `kick` service: a Kick channel's chat, read without a login. The channel JSON says
/// whether the channel is live and gives its chatroom, viewers and start; the chat is
/// Kick's public Pusher WebSocket (protocol 7). A chatroom id typed directly skips the JSON,
/// for when Kick's bot wall refuses it.
struct KickChatFeed: CommentFeed {
    let channel: KickChannel
    /// `https://kick.com`, or the `server` setting.
    let api: WebAPI

    /// Kick's public Pusher app (cluster us2), as its web player connects.
    static let pusherEndpoint = "wss://ws-us2.pusher.com/app/32cbd69e4b950bf97679?protocol=7&client=js&version=8.4.0&flash=false"
    static let viewersInterval: Duration = .seconds(60)
    /// Pusher's default when the server names none; the server's own value wins.
    static let defaultActivityTimeout = 120
    /// How long a ping may go unanswered before the connection counts as lost.
    static let pongTimeout: Duration = .seconds(30)

    /// Where one live stream's chat is.
    struct Chat: Sendable {
        var chatroomID: Int
        /// The channel's id (for its own Pusher channel: the end of the stream), when known.
        var channelID: Int?
        var slug: String?
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let problems = InputProblemLog(source: "kick \(channelName)")
        await ResolvedChatLoop.run(emit: emit, resolve: { await resolve(emit: emit) }, connect: { chat in
            try await read(chat, emit: emit, problems: problems)
        })
    }

    var channelName: String {
        switch channel {
        case .channel(let slug): return slug
        case .chatroom(let id): return "chatroom \(id)"
        }
    }

    /// Asks the channel JSON whether the channel is live, and where its chat is.
    func resolve(emit: @escaping @Sendable (FeedEvent) -> Void) async -> ResolvedChatLoop.Resolution<Chat> {
        guard case .channel(let slug) = channel else {
            if case .chatroom(let id) = channel { return .live(Chat(chatroomID: id, channelID: nil, slug: nil)) }
            return .failed("no Kick channel", retryAfter: ResolvedChatLoop.recheckInterval)
        }
        let answer: KickAPI.Channel
        do {
            answer = try await KickAPI.fetchChannel(api, slug: slug)
        } catch {
            switch error.status {
            case 404:
                return .failed("チャンネルが見つかりません / no such Kick channel: \(slug)",
                               retryAfter: ResolvedChatLoop.recheckInterval)
            case 403:
                return .failed("Kick がチャンネル情報を拒否しました (HTTP 403) / Kick refused its channel JSON (HTTP 403, bot wall): use kick:chatroom:ID",
                               retryAfter: ResolvedChatLoop.recheckInterval)
            default:
                return .failed(error.description, retryAfter: ResolvedChatLoop.retryAfter(error))
            }
        }
        guard let chatroomID = answer.chatroom?.id, chatroomID > 0 else {
            return .failed("the Kick channel JSON has no chatroom", retryAfter: ResolvedChatLoop.recheckInterval)
        }
        guard let stream = answer.livestream, stream.isLive != false else { return .notLive("配信前 / offline") }
        if let start = stream.startedAt { emit(.start(time: start)) }
        if let viewers = stream.viewerCount, viewers >= 0 { emit(.viewers(viewers)) }
        return .live(Chat(chatroomID: chatroomID, channelID: answer.id, slug: slug))
    }

    /// Reads one stream's chat until it ends.
    func read(_ chat: Chat, emit: @escaping @Sendable (FeedEvent) -> Void,
              problems: InputProblemLog) async throws -> ResolvedChatLoop.SessionEnd {
        let endpoint = try FeedEndpoint.parse(Self.pusherEndpoint, service: "kick", schemes: ["wss"], namedBy: .feed)
        let connection = try await ResolvedChatLoop.openWebSocket(endpoint, streamerServer: api.streamerServer,
                                                                 problems: problems)
        let lastHeard = LastHeard()
        return try await connection.executeThenClose { inbound, outbound in
            var mapper = KickChatMapper()
            var activityTimeout: Int?
            return try await withThrowingTaskGroup(of: Void.self) { group in
                defer { group.cancelAll() }
                do {
                    for try await frame in inbound {
                        lastHeard.now()
                        let message: PusherMessage
                        do throws(PusherMessage.ParseError) {
                            message = try PusherMessage.parse(frame.readableBytesView)
                        } catch {
                            problems.note(error.reason)
                            continue
                        }
                        switch message.event {
                        case "pusher:connection_established":
                            guard activityTimeout == nil else { continue }
                            let established = try? message.decode(ConnectionEstablished.self)
                            let seconds = max(1, min(established?.activityTimeout ?? Self.defaultActivityTimeout, 600))
                            activityTimeout = seconds
                            try await outbound.write(ByteBuffer(string: PusherMessage.subscribe("chatrooms.\(chat.chatroomID).v2")))
                            if let channelID = chat.channelID {
                                try await outbound.write(ByteBuffer(string: PusherMessage.subscribe("channel.\(channelID)")))
                            }
                            // Pusher expects a ping after `activity_timeout` seconds of silence. A ping
                            // left unanswered closes the connection, which ends this loop.
                            let channel = connection.channel
                            group.addTask {
                                try await keepAlive(every: Duration.seconds(seconds), lastHeard: lastHeard, outbound: outbound,
                                                    close: { channel.close(promise: nil) })
                            }
                            if chat.slug != nil { group.addTask { await pollViewers(emit: emit) } }
                        case "pusher_internal:subscription_succeeded":
                            if message.channel?.hasPrefix("chatrooms.") == true { emit(.status(.live)) }
                        case "pusher:ping":
                            try await outbound.write(ByteBuffer(string: PusherMessage.pong))
                        case "pusher:pong":
                            continue
                        case "pusher:error":
                            let failure = try? message.decode(PusherError.self)
                            let text = "Pusher error \(failure?.code.map(String.init) ?? "?"): \(String((failure?.message ?? "").prefix(120)))"
                            // 4000–4099: do not reconnect as is (a wrong app or channel).
                            if let code = failure?.code, (4000..<4100).contains(code) { return .failed(text) }
                            return .closed(text)
                        default:
                            switch mapper.map(message) {
                            case .emit(let event): emit(event)
                            case .ended: return .ended("配信終了 / stream ended")
                            case .ignore: continue
                            case .unknown(let reason): problems.note(reason)
                            }
                        }
                    }
                } catch where lastHeard.wentSilent {
                    throw KickSilence()
                }
                // The keepalive's failure is not seen by this task (it reads): its mark is.
                if lastHeard.wentSilent { throw KickSilence() }
                return .closed("the chat server closed the connection")
            }
        }
    }

    struct ConnectionEstablished: Decodable {
        var activityTimeout: Int?
        enum CodingKeys: String, CodingKey { case activityTimeout = "activity_timeout" }
    }

    struct PusherError: Decodable {
        var code: Int?
        var message: String?
    }

    /// Pings after each quiet `interval`; a connection that stays silent after a ping (for
    /// `pongTimeout`, or `interval` when that is shorter: a server that wants a ping so often
    /// answers as soon) is lost: marked in `lastHeard` and closed, so the reader ends and the loop
    /// reconnects.
    func keepAlive(every interval: Duration, lastHeard: LastHeard,
                   outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, close: @Sendable () -> Void) async throws {
        let pongWait = min(Self.pongTimeout, interval)
        while true {
            let quiet = ContinuousClock.now - lastHeard.instant
            if quiet < interval {
                try await Task.sleep(for: interval - quiet)
                continue
            }
            // Taken before the write: the pong can be read (and `lastHeard` moved) before the write
            // returns, and a pong heard before `sent` would count as no answer.
            let sent = ContinuousClock.now
            try await outbound.write(ByteBuffer(string: PusherMessage.ping))
            while lastHeard.instant < sent {
                if ContinuousClock.now - sent >= pongWait {
                    lastHeard.silent()
                    close()
                    throw KickSilence()
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// When the server last sent anything, shared by the reader and the keepalive.
    final class LastHeard: Sendable {
        private let time = Mutex(ContinuousClock.now)
        private let silence = Mutex(false)
        func now() { time.withLock { $0 = .now } }
        var instant: ContinuousClock.Instant { time.withLock { $0 } }
        /// The keepalive gave up on the connection: a ping went unanswered.
        func silent() { silence.withLock { $0 = true } }
        var wentSilent: Bool { silence.withLock { $0 } }
    }

    struct KickSilence: Error, CustomStringConvertible {
        var description: String { "the chat server did not answer a ping" }
    }

    /// Viewers (and a corrected start) from the channel JSON while the chat is read.
    func pollViewers(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        guard case .channel(let slug) = channel else { return }
        while !Task.isCancelled {
            do { try await Task.sleep(for: Self.viewersInterval) } catch { return }
            if let stream = try? await KickAPI.fetchChannel(api, slug: slug).livestream,
               let viewers = stream.viewerCount, viewers >= 0 {
                emit(.viewers(viewers))
            }
        }
    }
}
