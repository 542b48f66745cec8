// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import NIOCore

/// The `showroom` service: a room's live chat, read without a login. The room status API
/// says whether the room is live and gives the chat server's host and the broadcast key;
/// the chat is a WebSocket of tab-separated lines (`SUB⇥KEY` in, `MSG⇥KEY⇥{json}` out).
struct ShowroomChatFeed: CommentFeed {
    let roomKey: String
    /// `https://www.showroom-live.com`, or the `server` setting.
    let api: WebAPI
    /// Chat hosts must be SHOWROOM's own unless `server` names another API.
    let requiresShowroomChatHost: Bool

    static let pingInterval: Duration = .seconds(60)
    static let viewersInterval: Duration = .seconds(60)

    /// Where one broadcast's chat is.
    struct Broadcast: Sendable {
        var roomID: String
        var key: String
        var endpoint: FeedEndpoint
        var startedAt: Int?
    }

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let problems = InputProblemLog(source: "showroom \(roomKey)")
        var mapper = ShowroomChatMapper(giftNames: [:])
        await ResolvedChatLoop.run(emit: emit, resolve: { await resolve() }, connect: { broadcast in
            mapper.giftNames = await giftNames(roomID: broadcast.roomID, problems: problems)
            if let startedAt = broadcast.startedAt, startedAt > 0 { emit(.start(time: Double(startedAt))) }
            return try await read(broadcast, mapper: &mapper, emit: emit, problems: problems)
        })
    }

    /// Asks the room status API whether the room is live, and where its chat is.
    func resolve() async -> ResolvedChatLoop.Resolution<Broadcast> {
        let status: ShowroomAPI.RoomStatus
        do {
            status = try await api.getJSON(ShowroomAPI.RoomStatus.self,
                                           from: ShowroomAPI.statusURL(base: api.base, roomKey: roomKey),
                                           limits: ShowroomAPI.limits)
        } catch {
            if error.status == 404 {
                return .failed("ルームが見つかりません / no such SHOWROOM room: \(roomKey)",
                               retryAfter: ResolvedChatLoop.recheckInterval)
            }
            return .failed(error.description, retryAfter: ResolvedChatLoop.retryAfter(error))
        }
        guard let roomID = status.roomID?.value, !roomID.isEmpty, roomID.utf8.count <= 20,
              roomID.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            return .failed("ルームが見つかりません / no such SHOWROOM room: \(roomKey)",
                           retryAfter: ResolvedChatLoop.recheckInterval)
        }
        guard status.isLive == true else { return .notLive("配信前 / not live yet") }
        guard let key = status.broadcastKey, !key.isEmpty, key.utf8.count <= 256,
              !key.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
              let host = status.broadcastHost, let endpoint = chatEndpoint(host: host) else {
            return .failed("the SHOWROOM room status has no usable chat server", retryAfter: .seconds(10))
        }
        return .live(Broadcast(roomID: roomID, key: key, endpoint: endpoint, startedAt: status.startedAt?.value))
    }

    /// `wss://HOST/` for a host name the API gave: a plain DNS name, SHOWROOM's own
    /// unless the API itself was replaced by the `server` setting.
    func chatEndpoint(host: String) -> FeedEndpoint? {
        let host = host.lowercased()
        guard !host.isEmpty, host.utf8.count <= 253,
              host.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }),
              !requiresShowroomChatHost || host == "showroom-live.com" || host.hasSuffix(".showroom-live.com")
        else { return nil }
        return try? FeedEndpoint.parse("wss://\(host)/", service: "showroom", schemes: ["wss"], namedBy: .feed)
    }

    /// The room's gift names; without them gifts show their ids.
    func giftNames(roomID: String, problems: InputProblemLog) async -> [Int: String] {
        do {
            let list = try await api.getJSON(ShowroomAPI.GiftList.self,
                                             from: ShowroomAPI.giftListURL(base: api.base, roomID: roomID),
                                             limits: ShowroomAPI.limits)
            return ShowroomAPI.giftNames(list)
        } catch {
            problems.note("no gift list: \(error.description)")
            return [:]
        }
    }

    /// Reads one broadcast's chat until it ends.
    func read(_ broadcast: Broadcast, mapper: inout ShowroomChatMapper, emit: @escaping @Sendable (FeedEvent) -> Void,
              problems: InputProblemLog) async throws -> ResolvedChatLoop.SessionEnd {
        let connection = try await ResolvedChatLoop.openWebSocket(broadcast.endpoint, streamerServer: api.streamerServer,
                                                                 problems: problems)
        return try await connection.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "SUB\t\(broadcast.key)"))
            emit(.status(.live))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                // SHOWROOM drops a subscriber that stays silent: a PING every minute (answered by ACK).
                group.addTask {
                    while true {
                        try await Task.sleep(for: Self.pingInterval)
                        try await outbound.write(ByteBuffer(string: "PING\tshowroom"))
                    }
                }
                group.addTask { await pollViewers(roomID: broadcast.roomID, emit: emit) }
                defer { group.cancelAll() }
                for try await message in inbound {
                    let line: ShowroomLine
                    do throws(ShowroomLine.ParseError) {
                        line = try ShowroomLine.parse(String(buffer: message))
                    } catch {
                        problems.note(error.reason)
                        continue
                    }
                    switch line {
                    case .ack:
                        continue
                    case .quit:
                        return .closed("the chat server ended the subscription")
                    case .message(let payload):
                        if let end = mapper.map(payload).perform(emit: emit, problems: problems) { return end }
                    }
                }
                return .closed("the chat server closed the connection")
            }
        }
    }

    /// The viewer count while the chat is read, once a minute.
    func pollViewers(roomID: String, emit: @escaping @Sendable (FeedEvent) -> Void) async {
        while !Task.isCancelled {
            if let profile = try? await api.getJSON(ShowroomAPI.RoomProfile.self,
                                                    from: ShowroomAPI.profileURL(base: api.base, roomID: roomID),
                                                    limits: ShowroomAPI.limits),
               let viewers = profile.viewNum?.value, viewers >= 0 {
                emit(.viewers(viewers))
            }
            do { try await Task.sleep(for: Self.viewersInterval) } catch { return }
        }
    }
}
