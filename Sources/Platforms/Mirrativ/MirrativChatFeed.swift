// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import NIOCore

/// The `mirrativ` service: a Mirrativ live's comments and gifts, read with the streamer's own
/// session. The live API (with the session) says whether the live is on and gives the chat
/// key; the chat is a WebSocket of tab-separated lines (`SUB⇥KEY` in, `MSG⇥KEY⇥{json}` out).
struct MirrativChatFeed: CommentFeed {
    let stream: MirrativStreamID
    let session: MirrativSession?
    /// Mirrativ's own API only (the service takes no server setting).
    let web: any WebFetching

    static let apiBase = "https://\(MirrativAPI.host)"
    static let chatEndpoint = "wss://online.mirrativ.com/"
    static let pingInterval: Duration = .seconds(60)
    static let viewersInterval: Duration = .seconds(60)
    /// A refused session is asked about again only this rarely: the streamer must act first.
    static let loginRecheck: Duration = .seconds(600)
    static let needsSession = "ミラティブのログイン情報が必要です / Mirrativ needs your login session"

    struct Live: Sendable {
        var liveID: String
        var key: String
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        guard let session else {
            // Nothing to try until the streamer gives a session: said once, then quiet.
            emit(.status(.error(message: Self.needsSession)))
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        let problems = InputProblemLog(source: "mirrativ")
        await ResolvedChatLoop.run(emit: emit, resolve: { await resolve(session: session, emit: emit) }, connect: { live in
            try await read(live, session: session, emit: emit, problems: problems)
        })
    }

    func resolve(session: MirrativSession, emit: @escaping @Sendable (FeedEvent) -> Void) async
        -> ResolvedChatLoop.Resolution<Live>
    {
        do throws(MirrativAPI.Failure) {
            var liveID: String
            switch stream {
            case .live(let id):
                liveID = id
            case .user(let userID):
                let profile = try await MirrativAPI.fetch(MirrativAPI.Profile.self,
                                                          from: MirrativAPI.profileURL(base: Self.apiBase, userID: userID),
                                                          web: web, session: session)
                if profile.status?.needsLogin == true { throw .needsLogin }
                guard let id = profile.onlive?.liveID, MirrativStreamID.isLiveID(id) else {
                    return .notLive("配信前 / not live")
                }
                liveID = id
            }
            let live = try await MirrativAPI.fetch(MirrativAPI.Live.self,
                                                   from: MirrativAPI.liveURL(base: Self.apiBase, liveID: liveID),
                                                   web: web, session: session)
            if live.status?.needsLogin == true { throw .needsLogin }
            guard live.isLive != false else { return .ended("配信終了 / live ended") }
            guard let key = live.chatKey, key.utf8.count <= 256,
                  !key.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
                return .failed("the Mirrativ live has no chat key", retryAfter: .seconds(30))
            }
            // A live's id is not the streamer's: the viewer memory keeps viewers per streamer.
            if let owner = live.owner?.userID?.value.flatMap(FeedEvent.channelID) { emit(.channel(id: owner)) }
            if let start = live.startedAt?.value, start > 0 { emit(.start(time: Double(start))) }
            if let viewers = live.onlineUserNum?.value, viewers >= 0 { emit(.viewers(viewers)) }
            liveID = live.liveID.flatMap { MirrativStreamID.isLiveID($0) ? $0 : nil } ?? liveID
            return .live(Live(liveID: liveID, key: key))
        } catch {
            switch error {
            case .needsLogin:
                return .failed("\(Self.needsSession) (期限切れ? / expired?)", retryAfter: Self.loginRecheck)
            case .http(let failure):
                return .failed(failure.description, retryAfter: ResolvedChatLoop.retryAfter(failure))
            }
        }
    }

    func read(_ live: Live, session: MirrativSession, emit: @escaping @Sendable (FeedEvent) -> Void,
              problems: InputProblemLog) async throws -> ResolvedChatLoop.SessionEnd {
        let endpoint = try FeedEndpoint.parse(Self.chatEndpoint, service: "mirrativ", schemes: ["wss"],
                                              namedBy: .feed)
        let connection = try await ResolvedChatLoop.openWebSocket(endpoint, streamerServer: nil, problems: problems)
        return try await connection.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "SUB\t\(live.key)"))
            emit(.status(.live))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    while true {
                        try await Task.sleep(for: Self.pingInterval)
                        try await outbound.write(ByteBuffer(string: "PING"))
                    }
                }
                group.addTask { await pollViewers(live, session: session, emit: emit) }
                defer { group.cancelAll() }
                var mapper = MirrativChatMapper()
                for try await message in inbound {
                    do throws(MirrativChatMapper.ParseError) {
                        guard let payload = try MirrativPayload.parse(line: String(buffer: message)) else { continue }
                        if let event = mapper.map(payload) { emit(event) }
                    } catch {
                        problems.note(error.reason)
                    }
                }
                return .closed("the chat server closed the connection")
            }
        }
    }

    /// The viewer count while the chat is read, once a minute.
    func pollViewers(_ live: Live, session: MirrativSession, emit: @escaping @Sendable (FeedEvent) -> Void) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: Self.viewersInterval) } catch { return }
            if let answer = try? await MirrativAPI.fetch(MirrativAPI.Live.self,
                                                         from: MirrativAPI.liveURL(base: Self.apiBase, liveID: live.liveID),
                                                         web: web, session: session),
               let viewers = answer.onlineUserNum?.value, viewers >= 0 {
                emit(.viewers(viewers))
            }
        }
    }
}
