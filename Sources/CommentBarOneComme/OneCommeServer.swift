// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import Glibc
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The OneComme-compatible server of one bar: HTTP/1 and WebSocket (SwiftNIO) on 127.0.0.1 and ::1
/// only, on the shared network loop (`NetworkLoop`), with one file thread of its own that exists only
/// while it runs. Read-only, and bounded as the control server is (`ConnectionSlots`, `RequestDeadline`):
/// at most `maxConnections` at once, of which at most `maxUnproven` have not yet proven
/// themselves (a request that came whole, or a `/sub` a browser opened: browsers always send an
/// `Origin`), the oldest of those closed for a newcomer, so sockets that trickle a request or
/// `/sub` clients without an Origin never shut OBS's browser sources out; a whole request within
/// `requestDeadline`, heads of `maxHeaderBytes`, no bodies, an idle connection closed after
/// `idleTimeout`, each `/sub` client's unsent messages bounded (`PushSocket`).
final class OneCommeServer: LoopbackServer {
    let port: Int
    /// The addresses it listens on (::1 is left out where the machine has no IPv6).
    let addresses: [String]
    /// Where Vue's browser build was found (nil: not installed; templates without Vue still work).
    let vuePath: String?
    private let threads: NIOThreadPool
    private let listeners: [any Channel]
    private let hub: NIOLoopBound<OneCommeHub>
    private let slots: ConnectionSlots

    static let maxConnections = 64
    static let maxUnproven = 16
    static let requestDeadline = TimeAmount.seconds(10)
    static let maxHeaderBytes = 8 * 1024
    static let idleTimeout = TimeAmount.seconds(30)
    static let pingAfter = TimeAmount.seconds(25)
    static let deadAfter = TimeAmount.seconds(75)
    /// What a page may send on `/sub` (pings, a close) is tiny.
    static let maxIncomingFrame = 4096

    enum StartError: Error, Equatable, CustomStringConvertible, Sendable {
        case portTaken(Int)
        case cannotListen(String)

        var description: String {
            switch self {
            case .portTaken(let port):
                return "OneComme templates: port \(port) is in use (OneComme itself, or another source): choose another port"
            case .cannotListen(let why):
                return "OneComme templates: cannot listen: \(why)"
            }
        }
    }

    private init(port: Int, addresses: [String], vuePath: String?, threads: NIOThreadPool,
                 listeners: [any Channel], hub: NIOLoopBound<OneCommeHub>, slots: ConnectionSlots) {
        self.port = port
        self.addresses = addresses
        self.vuePath = vuePath
        self.threads = threads
        self.listeners = listeners
        self.hub = hub
        self.slots = slots
    }

    /// Listens on `port` of each loopback address (`hosts`). `templates`: the user's templates
    /// folder (nil: none). Vue's file is looked for once, here.
    static func start(port: Int, templates: String?, log: Logger, maxConnections: Int = OneCommeServer.maxConnections,
                      maxUnproven: Int = OneCommeServer.maxUnproven,
                      hosts: [String] = ["127.0.0.1", "::1"]) async throws(StartError) -> OneCommeServer {
        let threads = NIOThreadPool(numberOfThreads: 1)
        threads.start()
        let loop = NetworkLoop.loop
        let hub: NIOLoopBound<OneCommeHub>
        let vue: (bytes: [UInt8], path: String)?
        do {
            hub = try await loop.submit { NIOLoopBound(OneCommeHub(eventLoop: loop), eventLoop: loop) }.get()
            vue = try await threads.runIfActive { OneCommeAssets.loadVue() }
        } catch {
            await shutdown([], slots: nil, threads)
            throw .cannotListen("\(error)")
        }
        let routes = OneCommeRoutes(access: LoopbackAccess(port: port), hub: hub, files: templates.map(TemplateFiles.init),
                                    threads: threads, vue: vue?.bytes)
        let slots = ConnectionSlots(limit: maxConnections, unprovenLimit: maxUnproven)
        var listeners: [any Channel] = []
        var addresses: [String] = []
        for host in hosts {
            do {
                listeners.append(try await bootstrap(loop: loop, routes: routes, hub: hub, slots: slots)
                    .bind(host: host, port: port).get())
                addresses.append(host)
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                await shutdown(listeners, slots: slots, threads)
                throw .portTaken(port)
            } catch let error as IOError where host.contains(":") && [EADDRNOTAVAIL, EAFNOSUPPORT].contains(error.errnoCode) {
                log.info("OneComme templates: no IPv6 loopback here (\(error.description)): 127.0.0.1 only")
            } catch {
                await shutdown(listeners, slots: slots, threads)
                throw .cannotListen("\(host) port \(port): \(error)")
            }
        }
        guard !listeners.isEmpty else {
            await shutdown(listeners, slots: slots, threads)
            throw .cannotListen("no loopback address")
        }
        return OneCommeServer(port: port, addresses: addresses, vuePath: vue?.path, threads: threads,
                              listeners: listeners, hub: hub, slots: slots)
    }

    /// Its listening sockets, then its connections (the loop is the doors', and goes on), then its file thread.
    private static func shutdown(_ listeners: [any Channel], slots: ConnectionSlots?, _ threads: NIOThreadPool) async {
        for listener in listeners { try? await listener.close() }
        await slots?.closeAll()
        try? await threads.shutdownGracefully()
    }

    private static func bootstrap(loop: any EventLoop, routes: OneCommeRoutes, hub: NIOLoopBound<OneCommeHub>,
                                  slots: ConnectionSlots) -> ServerBootstrap {
        ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(ConnectionLimit(slots: slots)) }
            }
            // The kernel holds at most this much for a page that does not read; the rest waits in
            // its client's bounded queue.
            .childChannelOption(.socketOption(.so_sndbuf), value: 128 * 1024)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try configure(channel, routes: routes, hub: hub, slots: slots) }
            }
    }

    private static let idleHandlerName = "onecomme-idle"
    private static let httpHandlerName = "onecomme-http"

    private static func configure(_ channel: any Channel, routes: OneCommeRoutes, hub: NIOLoopBound<OneCommeHub>,
                                  slots: ConnectionSlots) throws {
        let deadline = RequestDeadline(limit: requestDeadline)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maxIncomingFrame, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(routes.mayUpgrade(head) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    // A browser's page (it sends its Origin, which `mayUpgrade` checked) keeps its
                    // slot; a client without one stays among the first to be closed for a newcomer.
                    if head.headers.contains(name: "Origin") { slots.proven(channel) }
                    let pipeline = channel.pipeline.syncOperations
                    pipeline.removeHandler(name: idleHandlerName, promise: nil)
                    pipeline.removeHandler(name: RequestDeadline.name, promise: nil)
                    try pipeline.addHandlers([
                        IdleStateHandler(readTimeout: deadAfter, writeTimeout: pingAfter),
                        PushSocket(owner: hub.value, topics: OneCommeSubscriptions.topics(uri: head.uri), pingText: "onecomme"),
                    ])
                }
            })
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderListSize = maxHeaderBytes
        limits.maxHeaderFieldSize = maxHeaderBytes
        limits.maxHeaderFieldCount = 64
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(deadline, name: RequestDeadline.name)
        try pipeline.addHandler(IdleStateHandler(allTimeout: idleTimeout), name: idleHandlerName)
        try pipeline.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.syncOperations.removeHandler(name: httpHandlerName, promise: nil)
            }),
            withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
        try pipeline.addHandler(OneCommeHTTPHandler(routes: routes, deadline: deadline, slots: slots), name: httpHandlerName)
    }

    /// Tells the pages (from any thread; the work is done on the server's loop).
    func publish(_ event: OneCommeHub.Event) {
        let hub = self.hub
        hub.eventLoop.execute { hub.value.apply(event) }
    }

    /// Connections open now, `/sub` clients among them, connections refused, connections closed
    /// for a newcomer (unproven) and clients dropped for falling behind so far (tests, the benchmark).
    func counts() async -> (open: Int, clients: Int, refused: Int, evicted: Int, dropped: Int) {
        let hub = self.hub
        let (clients, dropped) = (try? await hub.eventLoop.submit { (hub.value.clientCount, hub.value.dropped) }.get()) ?? (0, 0)
        return (slots.current, clients, slots.refused, slots.evicted, dropped)
    }

    /// Closes every connection and the listening sockets, and ends its threads.
    func stop() async {
        await Self.shutdown(listeners, slots: slots, threads)
    }
}
