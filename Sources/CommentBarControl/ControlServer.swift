// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Glibc
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The control server of one bar: HTTP/1 and WebSocket (SwiftNIO) on 127.0.0.1 and ::1 only,
/// with one event-loop thread of its own that exists only while the server runs. Limits: at
/// most `maxConnections` at once, request heads of `maxHeaderBytes`, bodies of
/// `ControlHTTPHandler.maxBodyBytes`, an idle HTTP connection closed after `idleTimeout`, and
/// each event client's queue bounded (`WebSocketClient`).
public final class ControlServer: Sendable {
    public let port: Int
    /// The addresses it listens on (::1 is left out where the machine has no IPv6).
    public let addresses: [String]
    private let group: MultiThreadedEventLoopGroup
    private let listeners: [any Channel]
    private let hub: HubAccess
    private let connections: ConnectionCounter

    public static let maxConnections = 32
    public static let maxHeaderBytes = 16 * 1024
    public static let idleTimeout = TimeAmount.seconds(30)
    /// An event client is pinged after this long without a message, and closed after `deadAfter` without a word.
    static let pingAfter = TimeAmount.seconds(25)
    static let deadAfter = TimeAmount.seconds(75)
    /// Incoming WebSocket frames (pings, close) are tiny.
    static let maxIncomingFrame = 4096

    public enum StartError: Error, Equatable, CustomStringConvertible, Sendable {
        /// Another program (or another source's server) has the port.
        case portTaken(Int)
        case cannotListen(String)

        public var description: String {
            switch self {
            case .portTaken(let port):
                return "control page: port \(port) is in use by another program; choose another Control port"
            case .cannotListen(let why):
                return "control page: cannot listen: \(why)"
            }
        }
    }

    private init(port: Int, addresses: [String], group: MultiThreadedEventLoopGroup, listeners: [any Channel],
                 hub: HubAccess, connections: ConnectionCounter) {
        self.port = port
        self.addresses = addresses
        self.group = group
        self.listeners = listeners
        self.hub = hub
        self.connections = connections
    }

    /// Listens on `port` of each loopback address (`hosts`: 127.0.0.1 and ::1).
    public static func start(port: Int, token: String, backend: any ControlBackend, log: Logger,
                             maxConnections: Int = ControlServer.maxConnections,
                             hosts: [String] = ["127.0.0.1", "::1"]) async throws(StartError) -> ControlServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let hub: HubAccess
        do {
            hub = try await loop.submit { HubAccess(EventHub(eventLoop: loop)) }.get()
        } catch {
            try? await group.shutdownGracefully()
            throw .cannotListen("\(error)")
        }
        let routes = ControlRoutes(access: ControlAccess(port: port, token: token), backend: backend, hub: hub, log: log)
        let connections = ConnectionCounter(limit: maxConnections)
        var listeners: [any Channel] = []
        var addresses: [String] = []
        for host in hosts {
            do {
                listeners.append(try await bootstrap(group: group, routes: routes, hub: hub, connections: connections, log: log)
                    .bind(host: host, port: port).get())
                addresses.append(host)
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                await close(listeners, group)
                throw .portTaken(port)
            } catch let error as IOError where host.contains(":")
                && [EADDRNOTAVAIL, EAFNOSUPPORT].contains(error.errnoCode) {
                log.info("control page: no IPv6 loopback here (\(error.description)): 127.0.0.1 only")
            } catch {
                await close(listeners, group)
                throw .cannotListen("\(host) port \(port): \(error)")
            }
        }
        guard !listeners.isEmpty else {
            await close(listeners, group)
            throw .cannotListen("no loopback address")
        }
        return ControlServer(port: port, addresses: addresses, group: group, listeners: listeners, hub: hub,
                             connections: connections)
    }

    private static func close(_ listeners: [any Channel], _ group: MultiThreadedEventLoopGroup) async {
        for listener in listeners { try? await listener.close() }
        try? await group.shutdownGracefully()
    }

    private static func bootstrap(group: MultiThreadedEventLoopGroup, routes: ControlRoutes, hub: HubAccess,
                                  connections: ConnectionCounter, log: Logger) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionLimit(counter: connections))
                }
            }
            // The kernel holds at most this much for a client that does not read; the rest waits
            // in the client's bounded queue.
            .childChannelOption(.socketOption(.so_sndbuf), value: 128 * 1024)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try configureConnection(channel, routes: routes, hub: hub, log: log)
                }
            }
    }

    private static let idleHandlerName = "control-idle"
    private static let httpHandlerName = "control-http"

    private static func configureConnection(_ channel: any Channel, routes: ControlRoutes, hub: HubAccess,
                                            log: Logger) throws {
        let http = ControlHTTPHandler(routes: routes)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maxIncomingFrame, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(routes.mayOpenEvents(head) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    pipeline.removeHandler(name: idleHandlerName, promise: nil)
                    try pipeline.addHandlers([
                        IdleStateHandler(readTimeout: deadAfter, writeTimeout: pingAfter),
                        WebSocketClient(hub: hub.onLoop(), log: log),
                    ])
                }
            })
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderListSize = maxHeaderBytes
        limits.maxHeaderFieldSize = maxHeaderBytes
        limits.maxHeaderFieldCount = 100
        let pipeline = channel.pipeline.syncOperations
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

    /// Connections open now, event clients among them, connections refused and event clients
    /// dropped for falling behind so far (tests, the benchmark).
    public func counts() async -> (open: Int, clients: Int, refused: Int, dropped: Int) {
        let (clients, dropped) = (try? await hub.run { ($0.clientCount, $0.dropped) }) ?? (0, 0)
        return (connections.current, clients, connections.refused, dropped)
    }

    /// Closes every connection and the listening sockets, and ends the thread.
    public func stop() async {
        await Self.close(listeners, group)
    }
}
