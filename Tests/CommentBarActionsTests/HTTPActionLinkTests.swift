// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarActions
import CommentBarCore
import CommentBarSupport
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import XCTest

/// The HTTP link against a real server on loopback that answers as Streamer.bot's HTTP server
/// does (`204 No Content` to `POST /DoAction`, docs.streamer.bot api/http/requests/do-action):
/// one kept-alive connection for every action, a new one when the server closed it meanwhile;
/// an answer read with the next action's hand-over, or after the settle time.
final class HTTPActionLinkTests: XCTestCase {
    /// `settle`: how long a lone answer waits to be read (short, unless a test is about it).
    func makeLink(to server: NoContentServer, path: String = "/DoAction", settle: TimeAmount = .milliseconds(5),
                  deadline: Duration = ActionLinks.deadline) -> HTTPActionLink {
        HTTPActionLink(target: ActionTarget(transport: .http(path: path), host: "127.0.0.1", port: server.port), path: path,
                       loop: MultiThreadedEventLoopGroup.singleton.next(), settle: settle, deadline: deadline)
    }

    /// The hook's sender over real HTTP links whose lone answers wait a minute: whatever is sent
    /// promptly was read with a hand-over.
    struct SlowSettleLinks: ActionLinkMaker {
        func link(to target: ActionTarget, password: String?, on loop: any EventLoop) -> any ActionLink {
            guard case .http(let path) = target.transport else { return ActionLinks().link(to: target, password: password, on: loop) }
            return HTTPActionLink(target: target, path: path, loop: loop, settle: .seconds(60))
        }
    }

    func makeHook() -> ActionsHook {
        ActionsHook(log: Logger(label: "actions") { _ in SwiftLogNoOpLogHandler() },
                    retry: Backoff(base: .milliseconds(20), cap: .milliseconds(40), jitter: false), links: SlowSettleLinks())
    }

    func settings(port: Int, password: String? = nil) -> BarSettings {
        var settings = BarSettings()
        settings.actionsTarget = "http://127.0.0.1:\(port)/DoAction"
        settings.actions = ["comment=Log"]
        settings.actionsPerSecond = 100
        if let password { settings.credentials[BarSettings.SecretKeys.actionsPassword.rawValue] = password }
        return settings
    }

    func comment(_ id: String) -> ActionRow {
        ActionRow(line: ChatLine(id: id, user: "U\(id)", text: "hello \(id)"), platform: "twitch", channel: "chan")
    }

    /// Five comments at once: each action waits behind another when the sender takes it, so each
    /// answer is read at once and all five go out in moments, not one per settle time.
    func testABurstGoesOutAtOnce() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let hook = makeHook()
        hook.configure(settings(port: server.port))
        for id in ["a", "b", "c", "d", "e"] { hook.heard(shown: comment(id), original: comment(id)) }
        try await waitFor { server.requests == 5 }
        await hook.stop()
    }

    /// A new password for the same Streamer.bot: the action it already has (its answer held) is
    /// not sent again to the new link; what still waited is.
    func testANewPasswordDoesNotSendTheWrittenActionAgain() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let hook = makeHook()
        hook.configure(settings(port: server.port))
        hook.heard(shown: comment("a"), original: comment("a"))
        try await waitFor { server.requests == 1 }
        hook.configure(settings(port: server.port, password: "new"))
        hook.heard(shown: comment("b"), original: comment("b"))
        try await waitFor { server.requests == 2 }
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(server.requests, 2, "a went once, b once")
        await hook.stop()
    }

    /// A connection that took most of the action's time: its answer is read by half the time
    /// left, not after the settle time, so an action that ran is not taken for unanswered.
    func testAnAnswerIsReadBeforeTheRequestsDeadline() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, settle: .seconds(60), deadline: .seconds(1))
        try await link.send(DoAction(action: "Log", args: [:]))
        await link.reset()
    }

    /// Another action waits while the kept connection is one the server closed: the new
    /// connection is told, so its first answer is read at once.
    func testAWaitingActionIsToldToTheConnectionThatReplacesAClosedOne() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, settle: .seconds(60))
        link.othersWaiting()
        try await link.send(DoAction(action: "Log", args: [:]))
        server.closeConnections()
        try await Task.sleep(for: .milliseconds(100))
        link.othersWaiting()
        let start = ContinuousClock.now
        try await link.send(DoAction(action: "Log", args: [:]))
        // Untold, the answer would wait for half the action's time (2.5 s) before it was read.
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2), "the new connection was not told")
        XCTAssertEqual(server.connections, 2)
        await link.reset()
    }

    /// The server has the request at once, but its answer is read (and the send ends) only when
    /// another action waits: the hand-over that brings the next action reads it, with no wake of its own.
    func testAnAnswerIsReadWhenAnotherActionWaits() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, settle: .seconds(60))
        let ended = Mutex(false)
        let sending = Task {
            try await link.send(DoAction(action: "Log", args: [:]))
            ended.withLock { $0 = true }
        }
        try await waitFor { server.requests == 1 }
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertFalse(ended.withLock { $0 }, "the answer was read before anything asked for it")
        link.othersWaiting()
        try await sending.value
        XCTAssertEqual(server.connections, 1)
        await link.reset()
    }

    /// With nothing else to send, the answer is read after the settle time.
    func testALoneAnswerIsReadAfterTheSettleTime() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, settle: .milliseconds(400))
        let start = ContinuousClock.now
        try await link.send(DoAction(action: "Log", args: [:]))
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(390))
        await link.reset()
    }

    /// Another action waited already when this one was written (before its connection was open,
    /// even): its answer is read at once, so the one waiting is not held for the settle time.
    func testAnActionWaitingBeforeTheRequestHasItsAnswerReadAtOnce() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, settle: .seconds(60))
        link.othersWaiting()
        try await link.send(DoAction(action: "Log", args: ["n": .integer(1)]))
        let second = Task { try await link.send(DoAction(action: "Log", args: ["n": .integer(2)])) }
        try await waitFor { server.requests == 2 }
        link.othersWaiting()
        try await second.value
        XCTAssertEqual(server.connections, 1)
        await link.reset()
    }

    /// A refusal comes with the answer read by the next hand-over, as the answer itself does.
    func testARefusalReadWithTheNextHandOverIsStillARefusal() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, path: "/Nowhere", settle: .seconds(60))
        let sending = Task { () -> ActionFailure? in
            do throws(ActionFailure) { try await link.send(DoAction(action: "Log", args: [:])) } catch { return error }
            return nil
        }
        try await waitFor { server.requests == 1 }
        link.othersWaiting()
        let failure = await sending.value
        XCTAssertEqual(failure?.answered, true, "a wrong path ran the action")
        await link.reset()
    }

    private func waitFor(_ condition: @Sendable () -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < end else { return XCTFail("not within 5 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func testEveryActionGoesOnOneKeptConnection() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server)
        for number in 0..<5 { try await link.send(DoAction(action: "Log", args: ["n": .integer(number)])) }
        XCTAssertEqual(server.requests, 5)
        XCTAssertEqual(server.connections, 1)
        await link.reset()
    }

    func testAConnectionTheServerClosedIsOpenedAgainWithoutAFailure() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server)
        try await link.send(DoAction(action: "Log", args: [:]))
        server.closeConnections()
        try await Task.sleep(for: .milliseconds(100))
        try await link.send(DoAction(action: "Log", args: [:]))
        XCTAssertEqual(server.requests, 2)
        XCTAssertEqual(server.connections, 2)
        await link.reset()
    }

    func testAWrongPathIsAnsweredNoAndNamesNoPath() async throws {
        let server = try await NoContentServer.start()
        defer { server.stop() }
        let link = makeLink(to: server, path: "/Do?key=s3cret")
        do {
            try await link.send(DoAction(action: "Log", args: [:]))
            XCTFail("a wrong path ran the action")
        } catch {
            XCTAssertTrue(error.answered)
            XCTAssertEqual(error.description, "http://127.0.0.1:\(server.port) answered 404 Not Found (is the address's path /DoAction?)")
        }
        await link.reset()
    }
}

/// `POST /DoAction` answered 204, anything else 404; counts connections and requests.
final class NoContentServer: Sendable {
    private let channel: any Channel
    private let counts: Counts

    private init(channel: any Channel, counts: Counts) {
        self.channel = channel
        self.counts = counts
    }

    var port: Int { channel.localAddress?.port ?? 0 }
    var connections: Int { counts.state.withLock { $0.connections.count } }
    var requests: Int { counts.state.withLock { $0.requests } }

    static func start() async throws -> NoContentServer {
        let counts = Counts()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                counts.state.withLock { $0.connections.append(child) }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(Answer(counts: counts))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return NoContentServer(channel: channel, counts: counts)
    }

    func closeConnections() {
        for child in counts.state.withLock({ $0.connections }) { child.close(promise: nil) }
    }

    func stop() {
        closeConnections()
        channel.close(promise: nil)
    }

    final class Counts: Sendable {
        let state = Mutex<(connections: [any Channel], requests: Int)>(([], 0))
    }

    final class Answer: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let counts: Counts
        private var uri = ""

        init(counts: Counts) {
            self.counts = counts
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): uri = head.uri
            case .body: break
            case .end:
                counts.state.withLock { $0.requests += 1 }
                let status: HTTPResponseStatus = uri == "/DoAction" ? .noContent : .notFound
                var headers = HTTPHeaders()
                if status != .noContent { headers.add(name: "Content-Length", value: "0") }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                              promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
