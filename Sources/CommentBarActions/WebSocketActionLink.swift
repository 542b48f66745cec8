// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore
import Synchronization

/// Streamer.bot's and Cuebot's WebSocket server (docs.streamer.bot, api/websocket): one connection,
/// kept open, greeted as Streamer.bot's official client greets it (Streamerbot/client 2.0.1,
/// packages/client/src/ws/StreamerbotClient.ts): the server speaks first, and its `Hello` is
/// awaited at most 5 s (`handshake`, 310-366); a Hello with `authentication` is answered with
/// `Authenticate` when a password is saved (`authenticate`, 392-408: `StreamerBotAuth`), else
/// `GetInfo` asks whether the server lets requests run without one (369-381); without a password
/// the client asks `GetInfo` too (416-421). Each action is then a `DoAction` request whose answer,
/// matched by its `id` (`request`, 602-677), is awaited within the deadline. A connection that
/// ends, or an answer that does not come, is dropped and opened again on the next try.
final class WebSocketActionLink: ActionLink {
    let target: ActionTarget
    let path: String
    let password: String?
    private let state = Mutex(State())

    private struct State {
        var session: Session?
        var requests = 0
    }

    /// One open connection: where to write, what the server said, and the task reading it.
    private struct Session: Sendable {
        var outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        var answers: WebSocketAnswers
        var reader: Task<Void, Never>
    }

    /// How long the server may take to say Hello (the official client's handshake timeout,
    /// StreamerbotClient.ts:347); a server that says none is asked `GetInfo`, as the client asks
    /// Streamer.bot 0.2.4 and older (416-421), and used if it answers.
    static let helloWait = Duration.seconds(5)

    init(target: ActionTarget, path: String, password: String?) {
        self.target = target
        self.path = path
        self.password = password.flatMap { $0.isEmpty ? nil : $0 }
    }

    func send(_ action: DoAction) async throws(ActionFailure) {
        // The greeting has its own bounds (Hello, then one request), so a first action may wait for both.
        let session = try await self.session()
        try await ActionLinks.bounded("\(target)") { () async -> Result<Void, ActionFailure> in
            do throws(ActionFailure) {
                let id = self.nextID()
                let answer = try await self.request(action.request(id: id), id: id, on: session)
                guard answer.ok else {
                    return .failure(ActionFailure(
                        description: "\(self.target) could not run the action \(String(reflecting: action.action))"
                            + (answer.error.map { ": \(String($0.prefix(120)))" } ?? " (is there an action of that name?)"),
                        answered: true))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
    }

    func reset() async {
        let session = state.withLock { state -> Session? in
            defer { state.session = nil }
            return state.session
        }
        session?.reader.cancel()
        session?.answers.close()
        await session?.reader.value
    }

    private func nextID() -> String {
        state.withLock { state in
            state.requests += 1
            return "commentbar-\(state.requests)"
        }
    }

    /// Writes one request and waits for its answer.
    private func request(_ bytes: [UInt8], id: String, on session: Session) async throws(ActionFailure)
        -> WebSocketAnswers.Answer {
        do {
            try await session.outbound.write(ByteBuffer(bytes: bytes))
        } catch {
            throw ActionFailure(description: "\(target): the connection closed")
        }
        guard let answer = await session.answers.answer(to: id, within: ActionLinks.deadline) else {
            throw ActionFailure(description: "\(target): no answer")
        }
        return answer
    }

    /// The open connection, or a new one (greeted and, when asked, authenticated).
    private func session() async throws(ActionFailure) -> Session {
        if let session = state.withLock({ $0.session }) { return session }
        let address = try await LocalAddresses.address(of: target)
        let channel: FeedConnector.MessageChannel
        do {
            // To the very address checked: the streamer's own, reached wherever it is.
            let endpoint = try FeedEndpoint.parse("ws://\(LocalAddresses.urlHost(address)):\(target.port)\(path)",
                                                  service: "actions", schemes: ["ws"], namedBy: .streamer)
            channel = try await FeedConnector.connect(to: endpoint, framing: .messages, tls: nil, connectTo: ConnectTo(),
                                                      streamerServer: nil,
                                                      problems: InputProblemLog(source: "actions"))
        } catch {
            // The path may hold a key: never quoted.
            let reason = path.count > 1 ? HTTPActionLink.reason(error).replacing(path, with: "/…") : HTTPActionLink.reason(error)
            throw ActionFailure(description: "\(target): \(reason)")
        }
        let answers = WebSocketAnswers()
        let (writers, handOver) = AsyncStream.makeStream(of: NIOAsyncChannelOutboundWriter<ByteBuffer>.self)
        let reader = Task {
            try? await channel.executeThenClose { inbound, outbound in
                handOver.yield(outbound)
                for try await message in inbound { answers.receive(Array(buffer: message)) }
            }
            handOver.finish()
            answers.close()
        }
        var handed = writers.makeAsyncIterator()
        guard let outbound = await handed.next() else {
            throw ActionFailure(description: "\(target): the connection closed")
        }
        let session = Session(outbound: outbound, answers: answers, reader: reader)
        do {
            try await greet(session)
        } catch {
            reader.cancel()
            answers.close()
            throw error
        }
        state.withLock { $0.session = session }
        return session
    }

    /// Waits for the server's Hello, then authenticates or asks `GetInfo` as the official client does.
    private func greet(_ session: Session) async throws(ActionFailure) {
        guard let hello = await session.answers.hello(within: Self.helloWait) else {
            // No Hello: an older server, if it answers GetInfo by id.
            guard await askInfo(session) != nil else {
                throw ActionFailure(description: "\(target) said no Hello within \(Self.helloWait.components.seconds) s "
                                    + "(is it Streamer.bot's or Cuebot's WebSocket server?)")
            }
            return
        }
        guard let salt = hello.salt, let challenge = hello.challenge else {
            // No password on the server: the official client asks GetInfo without one (its answer unused).
            if password == nil { _ = await askInfo(session) }
            return
        }
        guard let password else {
            // Without a password the server may still run requests (it needs one for SendMessage only,
            // unless set to need it for all): GetInfo says which.
            guard await askInfo(session)?.ok == true else {
                throw ActionFailure(description: "\(target) asks for a password: type it in the source's properties "
                                    + "(Streamer.bot / Cuebot actions → WebSocket password)", answered: true)
            }
            return
        }
        let id = nextID()
        struct Authenticate: Encodable {
            var request = "Authenticate"
            var id: String
            var authentication: String
        }
        let answer = try await request(
            DoAction.encoded(Authenticate(id: id, authentication: StreamerBotAuth.answer(password: password, salt: salt,
                                                                                         challenge: challenge))),
            id: id, on: session)
        guard answer.ok else {
            throw ActionFailure(description: "\(target) refused the WebSocket password: type it again in the source's properties",
                                answered: true)
        }
    }

    /// `GetInfo`'s answer (nil: none came within the deadline).
    private func askInfo(_ session: Session) async -> WebSocketAnswers.Answer? {
        struct GetInfo: Encodable {
            var request = "GetInfo"
            var id: String
        }
        let id = nextID()
        do {
            return try await request(DoAction.encoded(GetInfo(id: id)), id: id, on: session)
        } catch {
            return nil
        }
    }
}
