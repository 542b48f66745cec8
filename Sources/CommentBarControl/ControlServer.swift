// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import Glibc
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The control server of one bar: HTTP/1 and WebSocket (SwiftNIO) on 127.0.0.1 and ::1 only,
/// on the shared network loop (`NetworkLoop`): off, it has no socket, no timer and no thread. Limits
/// (`Options`): connection slots (`ConnectionSlots`: fewer for connections that have not shown a
/// credential), a deadline for each whole request (`RequestDeadline`), request heads of
/// `maxHeaderBytes`, bodies of `ControlHTTPHandler.maxBodyBytes`, an idle HTTP connection closed
/// after `idleTimeout`, and each event client's queue bounded (`PushSocket`).
public final class ControlServer: LoopbackServer {
    public let port: Int
    /// The addresses it listens on (::1 is left out where the machine has no IPv6).
    public let addresses: [String]
    private let listeners: [any Channel]
    /// The token file's look for the open pages' sake, every `Options.tokenCheck`.
    private let tokenCheck: RepeatedTask
    private let hub: HubAccess
    private let slots: ConnectionSlots
    private let routes: ControlRoutes
    private let token: TokenWatch

    public static let maxHeaderBytes = 16 * 1024
    public static let idleTimeout = TimeAmount.seconds(30)
    /// An event client is pinged after this long without a message, and closed after `deadAfter` without a word.
    static let pingAfter = TimeAmount.seconds(25)
    static let deadAfter = TimeAmount.seconds(75)
    /// Incoming WebSocket frames (pings, close) are tiny.
    static let maxIncomingFrame = 4096
    /// The close code event clients get when the token changed: the page asks to be opened again.
    static let tokenChangedCode = WebSocketErrorCode(codeNumber: 4001)

    /// The server's limits (tests give smaller ones).
    public struct Options: Sendable {
        public var maxConnections = 32
        /// Of those, how many may be held by connections that have not shown a credential yet.
        public var maxUnproven = 16
        /// A whole request must arrive within this of its first byte.
        public var requestDeadline = TimeAmount.seconds(10)
        /// How long a page's one-time code works.
        public var codeLifetime = PageSessions.codeLifetime
        /// How often the token file is looked at for the open pages' sake (requests look every time).
        public var tokenCheck = TimeAmount.seconds(1)
        public var hosts = ["127.0.0.1", "::1"]
        /// Where "Open control page" writes the page's link files (nil: `PageTrampoline.folder()`):
        /// a used code's file is removed from there.
        public var linkFileFolder: String?

        public init() {}
    }

    public enum StartError: Error, Equatable, CustomStringConvertible, Sendable {
        /// Another program (or another source's server) has the port.
        case portTaken(Int)
        case cannotListen(String)
        /// The token file cannot be made or read (`ControlToken.Problem`'s words).
        case noToken(String)

        public var description: String {
            switch self {
            case .noToken(let why):
                return "control page: \(why)"
            case .portTaken(let port):
                return "control page: port \(port) is in use by another program; choose another Control port"
            case .cannotListen(let why):
                return "control page: cannot listen: \(why)"
            }
        }
    }

    private init(port: Int, addresses: [String], listeners: [any Channel], tokenCheck: RepeatedTask,
                 hub: HubAccess, slots: ConnectionSlots, routes: ControlRoutes, token: TokenWatch) {
        self.port = port
        self.token = token
        self.addresses = addresses
        self.listeners = listeners
        self.tokenCheck = tokenCheck
        self.hub = hub
        self.slots = slots
        self.routes = routes
    }

    /// Listens on `port` of each loopback address (0: a free port, the same on each, then `port`).
    public static func start(port: Int, token: TokenWatch, backend: any ControlBackend, log: Logger,
                             options: Options = Options()) async throws(StartError) -> ControlServer {
        let loop = NetworkLoop.loop
        let slots = ConnectionSlots(limit: options.maxConnections, unprovenLimit: options.maxUnproven)
        let hub: HubAccess
        do {
            hub = try await loop.submit { HubAccess(EventHub(eventLoop: loop, log: log)) }.get()
        } catch {
            throw .cannotListen("\(error)")
        }
        let sessions = PageSessions(lifetime: options.codeLifetime)
        // Connections are taken only once the port is known (port 0: after the first bind).
        let setup = ConnectionSetup()
        var listeners: [any Channel] = []
        var addresses: [String] = []
        var bound = port
        for host in options.hosts {
            do {
                let listener = try await bootstrap(loop: loop, setup: setup, hub: hub, slots: slots,
                                                   deadline: options.requestDeadline, log: log)
                    .bind(host: host, port: bound).get()
                listeners.append(listener)
                addresses.append(host)
                bound = listener.localAddress?.port ?? bound
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                await close(listeners, slots)
                throw .portTaken(bound)
            } catch let error as IOError where host.contains(":")
                && [EADDRNOTAVAIL, EAFNOSUPPORT].contains(error.errnoCode) {
                log.info("control page: no IPv6 loopback here (\(error.description)): 127.0.0.1 only")
            } catch {
                await close(listeners, slots)
                throw .cannotListen("\(host) port \(port): \(error)")
            }
        }
        guard !listeners.isEmpty else {
            await close(listeners, slots)
            throw .cannotListen("no loopback address")
        }
        let routes = ControlRoutes(access: ControlAccess(port: bound, token: token, sessions: sessions,
                                                                 linkFileFolder: options.linkFileFolder),
                                   backend: backend, hub: hub, log: log)
        setup.routes.withLock { $0 = routes }
        // A new token ends every page's session, closes every event client and refuses the requests
        // held for news (`stop` undoes this).
        token.onChange { @Sendable in
            sessions.revokeAll()
            hub.execute { hub in
                hub.closeAll(code: tokenChangedCode, reason: "the control token changed: open the page again")
                hub.waits.revoke()
            }
        }
        // The open pages hear of a new token within a second (requests notice it at once).
        let tokenCheck = loop.scheduleRepeatedTask(initialDelay: options.tokenCheck, delay: options.tokenCheck) { _ in
            _ = token.current()
        }
        return ControlServer(port: bound, addresses: addresses, listeners: listeners, tokenCheck: tokenCheck, hub: hub,
                             slots: slots, routes: routes, token: token)
    }

    /// Its listening sockets, then its connections (the loop is the doors', and goes on).
    private static func close(_ listeners: [any Channel], _ slots: ConnectionSlots) async {
        for listener in listeners { try? await listener.close() }
        await slots.closeAll()
    }

    private static func bootstrap(loop: any EventLoop, setup: ConnectionSetup, hub: HubAccess,
                                  slots: ConnectionSlots, deadline: TimeAmount, log: Logger) -> ServerBootstrap {
        ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionLimit(slots: slots))
                }
            }
            // The kernel holds at most this much for a client that does not read; the rest waits
            // in the client's bounded queue.
            .childChannelOption(.socketOption(.so_sndbuf), value: 128 * 1024)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelInitializer { channel in
                guard let routes = setup.routes.withLock({ $0 }) else {
                    return channel.close()
                }
                return channel.eventLoop.makeCompletedFuture {
                    try configureConnection(channel, routes: routes, hub: hub, slots: slots, deadline: deadline, log: log)
                }
            }
    }

    private static let idleHandlerName = "control-idle"
    private static let httpHandlerName = "control-http"

    private static func configureConnection(_ channel: any Channel, routes: ControlRoutes, hub: HubAccess,
                                            slots: ConnectionSlots, deadline: TimeAmount, log: Logger) throws {
        let requestDeadline = RequestDeadline(limit: deadline)
        let http = ControlHTTPHandler(routes: routes, deadline: requestDeadline, slots: slots)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maxIncomingFrame, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(routes.mayOpenEvents(head) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    slots.proven(channel)
                    let pipeline = channel.pipeline.syncOperations
                    pipeline.removeHandler(name: idleHandlerName, promise: nil)
                    pipeline.removeHandler(name: RequestDeadline.name, promise: nil)
                    try pipeline.addHandlers([
                        IdleStateHandler(readTimeout: deadAfter, writeTimeout: pingAfter),
                        PushSocket(owner: hub.onLoop(), pingText: "commentbar"),
                    ])
                }
            })
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderListSize = maxHeaderBytes
        limits.maxHeaderFieldSize = maxHeaderBytes
        limits.maxHeaderFieldCount = 100
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(requestDeadline, name: RequestDeadline.name)
        try pipeline.addHandler(IdleStateHandler(allTimeout: idleTimeout), name: idleHandlerName)
        try pipeline.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.syncOperations.removeHandler(name: httpHandlerName, promise: nil)
            }),
            withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
        try pipeline.addHandler(http, name: httpHandlerName)
    }

    /// Sends an event to every client (from any thread; the work is done on the server's loop).
    public func publish(_ body: ControlEvent.Body, line: ChatLine? = nil) {
        hub.execute { $0.publish(body, line: line) }
    }

    /// The page's address with a new one-time code (valid for `Options.codeLifetime`, once): what
    /// "Open control page" opens.
    public func pageLink() -> String { routes.pageURL() }

    /// What the server holds and has turned away so far (tests, the benchmark).
    public struct Counts: Sendable, Equatable {
        /// Connections open now, event clients among them.
        public var open: Int, clients: Int
        /// Connections refused (every slot held by proven ones), and closed to make room for a new one.
        public var refused: Int, evicted: Int
        /// Event clients dropped for falling behind.
        public var dropped: Int
        /// `/api/comments?wait=` requests held now.
        public var held = 0
    }

    public func counts() async -> Counts {
        let (clients, dropped, held) = (try? await hub.run { ($0.clientCount, $0.dropped, $0.waits.count) }) ?? (0, 0, 0)
        return Counts(open: slots.current, clients: clients, refused: slots.refused, evicted: slots.evicted,
                      dropped: dropped, held: held)
    }

    /// Closes the listening sockets, every connection and its timer.
    public func stop() async {
        token.onChange(nil)
        tokenCheck.cancel()
        // The requests held for news are answered now and no more are held: none keeps the stop waiting.
        _ = try? await hub.run { $0.waits.stop() }
        await Self.close(listeners, slots)
    }
}

/// The routes new connections use, set once the server's port is known.
private final class ConnectionSetup: Sendable {
    let routes = Mutex<ControlRoutes?>(nil)
}
