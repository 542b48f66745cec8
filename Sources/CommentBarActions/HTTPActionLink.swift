// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Streamer.bot's and Cuebot's HTTP server: each action one `POST /DoAction` with the JSON body
/// (docs.streamer.bot, api/http/requests/do-action), answered `204 No Content`, to the address the
/// target's host resolved to (`LocalAddresses`). One connection is kept open between actions
/// (HTTP/1.1 keep-alive, NIOHTTP1's codec and `HTTPExchangeHandler`): a new connection and its
/// pool bookkeeping for each action cost the renderer about 0.9 ms of CPU with AsyncHTTPClient.
/// The connection lives on `loop`, where the sender runs: a request and its answer stay on one thread.
/// An answer is read when the next action waits (`othersWaiting`) or `settle` after its request
/// (`HTTPExchangeHandler`): at 10 actions a second, none wakes the loop on its own.
final class HTTPActionLink: ActionLink {
    let target: ActionTarget
    let path: String
    let loop: any EventLoop
    let settle: TimeAmount
    /// The longest one action may take, its connection included.
    let deadline: Duration
    private let state = Mutex(State())
    /// Requests written whose answer has not been taken yet.
    private let unanswered = Atomic<Int>(0)

    var awaitingAnswer: Bool { unanswered.load(ordering: .relaxed) > 0 }

    private struct State {
        /// The open connection and the `Host` it is asked with (nil: the next action opens one).
        var connection: Connection?
        /// `othersWaiting` came while no connection was open: the one being opened is told.
        var othersWaited = false
    }

    private struct Connection: Sendable {
        var channel: any Channel
        var host: String
    }

    init(target: ActionTarget, path: String, loop: any EventLoop, settle: TimeAmount = HTTPActionLink.settle,
         deadline: Duration = ActionLinks.deadline) {
        self.target = target
        self.path = path
        self.loop = loop
        self.settle = settle
        self.deadline = deadline
    }

    static let connectTimeout = TimeAmount.seconds(3)
    /// A lone action's answer is read this long after its request: its failure is on the bar's
    /// status by then, and a chat of more than one action a second reads every answer with the
    /// next. Not shorter: a timer NIO cancels still wakes the loop when it was due (the timerfd
    /// stays set), so at 10 actions a second the settle costs about one wake per `settle`.
    static let settle = TimeAmount.seconds(1)

    func othersWaiting() {
        let channel = state.withLock { open -> (any Channel)? in
            // A connection the server closed is none: the next send opens one, which is told.
            guard let channel = open.connection?.channel, channel.isActive else {
                open.othersWaited = true
                return nil
            }
            return channel
        }
        if let channel { tellOthersWait(channel) }
    }

    private func tellOthersWait(_ channel: any Channel) {
        if channel.eventLoop.inEventLoop {
            channel.triggerUserOutboundEvent(HTTPExchangeHandler.ReadAnswers(), promise: nil)
        } else {
            channel.eventLoop.execute { channel.triggerUserOutboundEvent(HTTPExchangeHandler.ReadAnswers(), promise: nil) }
        }
    }

    func send(_ action: DoAction) async throws(ActionFailure) {
        let body = ByteBuffer(bytes: action.httpBody)
        let end = ContinuousClock.now + deadline
        if let open = state.withLock({ $0.connection }) {
            let outcome = await exchange(body, on: open, until: end)
            guard outcome == .failure(.closed) else { return try judge(outcome) }
            // The server closed the kept connection while it idled: once more on a new one.
            await reset()
        }
        let fresh = try await connect()
        try judge(await exchange(body, on: fresh, until: end))
    }

    func reset() async {
        let open = state.withLock { open -> Connection? in
            defer { open.connection = nil }
            return open.connection
        }
        try? await open?.channel.close()
    }

    /// One request on the connection, and its answer's status by `end`.
    private func exchange(_ body: ByteBuffer, on connection: Connection, until end: ContinuousClock.Instant) async
        -> Result<HTTPResponseStatus, HTTPExchangeHandler.Failure> {
        var headers = HTTPHeaders()
        // The address the host resolved to, as the URL was asked before (Streamer.bot's listener
        // matches the Host against the address it listens on).
        headers.add(name: "Host", value: connection.host)
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        let nanoseconds = (end - ContinuousClock.now).clampedNanoseconds
        let answer = connection.channel.eventLoop.makePromise(of: HTTPResponseStatus.self)
        // A write on a connection already closed never reaches the handler, which would fail the
        // answer: the write's failure does (a promise already failed by the handler stays as it is).
        let written = connection.channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenFailure { _ in answer.fail(HTTPExchangeHandler.Failure.closed) }
        unanswered.add(1, ordering: .relaxed)
        defer { unanswered.subtract(1, ordering: .relaxed) }
        connection.channel.writeAndFlush(HTTPExchangeHandler.Exchange(
            head: HTTPRequestHead(version: .http1_1, method: .POST, uri: path, headers: headers),
            body: body, answer: answer, deadline: .nanoseconds(nanoseconds)), promise: written)
        do {
            return .success(try await answer.futureResult.get())
        } catch let failure as HTTPExchangeHandler.Failure {
            return .failure(failure)
        } catch {
            return .failure(.closed)
        }
    }

    /// The answer as the sender takes it: a 2xx ran the action.
    private func judge(_ outcome: Result<HTTPResponseStatus, HTTPExchangeHandler.Failure>) throws(ActionFailure) {
        let status: HTTPResponseStatus
        switch outcome {
        case .success(let answered): status = answered
        case .failure(.noAnswer):
            throw ActionFailure(description: "\(target): no answer within \(ActionLinks.deadline.components.seconds) s")
        case .failure(.closed):
            throw ActionFailure(description: "\(target): the connection closed")
        }
        guard (200..<300).contains(status.code) else {
            throw ActionFailure(description: "\(target) answered \(status.code) \(status.reasonPhrase)"
                                + (status.code == 404 ? " (is the address's path /DoAction?)" : ""),
                                answered: true)
        }
    }

    /// A new connection to the very address the host resolved to.
    private func connect() async throws(ActionFailure) -> Connection {
        let address = try await LocalAddresses.address(of: target)
        do {
            let settle = settle
            let channel = try await ClientBootstrap(group: loop)
                .connectTimeout(Self.connectTimeout)
                // Answers are read when the handler asks (it says when).
                .channelOption(.autoRead, value: false)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(HTTPExchangeHandler(settle: settle))
                    }
                }
                .connect(to: address).get()
            let opened = Connection(channel: channel, host: "\(LocalAddresses.urlHost(address)):\(target.port)")
            let othersWaited = state.withLock { open -> Bool in
                defer { open = State(connection: opened) }
                return open.othersWaited
            }
            if othersWaited { tellOthersWait(channel) }
            return opened
        } catch {
            throw ActionFailure(description: "\(target): \(Self.reason(error))")
        }
    }

    /// NIO's errors, as a streamer reads them.
    static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectTimeout") { return "does not answer" }
        if text.contains("Connection refused") || text.contains("connectionRefused") || text.contains("ECONNREFUSED") {
            return "nothing listens there (is its HTTP server on?)"
        }
        return text.count > 120 ? String(text.prefix(120)) + "…" : text
    }
}

