// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Opens a connection to a feed endpoint and hands back a channel of whole messages:
/// inbound buffers are lines (`.lines`) or WebSocket messages (`.messages`), outbound
/// buffers are lines or messages to send. TCP, TLS and WebSocket differences stay in
/// the pipeline, so the feeds only see messages.
package enum FeedConnector {
    package enum Framing: Sendable, Equatable {
        /// One inbound buffer per line, on TCP or inside WebSocket messages; `keepalivePing`
        /// is the line sent on a silent TCP link (WebSocket links send a ping frame).
        case lines(keepalivePing: String)
        /// One inbound buffer per WebSocket message.
        case messages
    }

    package typealias MessageChannel = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    package struct UpgradeRefused: Error, CustomStringConvertible {
        package var description: String { "the server did not accept the WebSocket upgrade" }
    }

    /// A WebSocket message over `maxWebSocketMessageBytes`, refused with close 1009.
    package struct MessageTooLarge: Error, CustomStringConvertible {
        package var description: String {
            "a message larger than \(FeedConnector.byteCount(maxWebSocketMessageBytes)) was refused (close 1009)"
        }
    }

    static let connectTimeout = TimeAmount.seconds(10)
    /// Silence after which a keepalive ping is sent, and after twice which the link counts as dead.
    static let idleTimeout = TimeAmount.seconds(150)
    /// Whole WebSocket messages above this are refused (the connection restarts).
    package static let maxWebSocketMessageBytes = 1 << 20

    /// "1 MiB", "64 KiB" or "1000 bytes".
    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// `streamerServer`: the server the streamer typed for this feed, reached wherever it is when
    /// the endpoint is that very host and port (an answer of the API it names may point there).
    package static func connect(to endpoint: FeedEndpoint, framing: Framing, tls: NIOSSLContext?,
                                connectTo: ConnectTo, streamerServer: StreamerServer?,
                                problems: InputProblemLog) async throws -> MessageChannel {
        // On the loop the feeds' tasks prefer (`NetworkLoop`): a message read resumes its reader there.
        let bootstrap = ClientBootstrap(group: NetworkLoop.loop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.so_keepalive), value: 1)
        // The certificate is checked against the endpoint's name, wherever connect-to sends us.
        let serverHostname = TLSSettings.serverHostname(for: endpoint.host)
        let target = connectTo.target(host: endpoint.host, port: endpoint.port)
        let pinned = try await pinnedAddresses(for: endpoint, connectTo: connectTo, streamerServer: streamerServer)
        switch endpoint.transport {
        case .tcp:
            let ping: String
            switch framing {
            case .lines(let keepalivePing): ping = keepalivePing
            case .messages: ping = ""
            }
            return try await open(bootstrap, target: target, pinned: pinned) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    }
                    try pipeline.addHandlers([
                        ByteToMessageHandler(LineFrameDecoder(problems: problems)),
                        MessageToByteHandler(LineFrameEncoder()),
                        IdleStateHandler(readTimeout: idleTimeout),
                        KeepaliveHandler<ByteBuffer>(ping: { ByteBuffer(string: ping) }),
                    ])
                    return try MessageChannel(wrappingChannelSynchronously: channel)
                }
            }
        case .webSocket(let path):
            let upgrade: EventLoopFuture<MessageChannel?> = try await open(bootstrap, target: target, pinned: pinned) {
                channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    }
                    let upgrader = NIOTypedWebSocketClientUpgrader<MessageChannel?>(
                        maxFrameSize: maxWebSocketMessageBytes,
                        // WebSocketMessageHandler answers protocol errors itself, after passing them on.
                        enableAutomaticErrorHandling: false,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandlers([
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024,
                                        maxAccumulatedFrameSize: maxWebSocketMessageBytes),
                                    IdleStateHandler(readTimeout: idleTimeout),
                                    KeepaliveHandler<WebSocketFrame>(ping: WebSocketMessageHandler.pingFrame),
                                    WebSocketMessageHandler(splitsLines: framing != .messages, problems: problems),
                                ])
                                return try MessageChannel(wrappingChannelSynchronously: channel)
                            }
                        }
                    )
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: endpoint.hostHeader)
                    headers.add(name: "User-Agent", value: "CommentBar")
                    headers.add(name: "Content-Length", value: "0")
                    let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<MessageChannel?>(
                        upgradeRequestHead: request,
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.close(promise: nil)
                            return channel.eventLoop.makeSucceededFuture(nil)
                        }
                    )
                    var httpConfiguration = NIOUpgradableHTTPClientPipelineConfiguration(
                        upgradeConfiguration: configuration)
                    // Bytes after the 101 response (a fast server's first frames, in the same read)
                    // go on to the WebSocket decoder; NIO's client default drops them.
                    httpConfiguration.leftOverBytesStrategy = .forwardBytes
                    return try pipeline.configureUpgradableHTTPClientPipeline(configuration: httpConfiguration)
                }
            }
            guard let channel = try await upgrade.get() else { throw UpgradeRefused() }
            return channel
        }
    }

    /// Where a chat server a platform named may be reached: its public addresses, checked
    /// before connecting (`AddressPolicy`), or nil to connect by name: the streamer typed it (the
    /// endpoint, or this feed's `streamerServer`), or `COMMENTBAR_CONNECT_TO` maps it to an address.
    package static func pinnedAddresses(for endpoint: FeedEndpoint, connectTo: ConnectTo,
                                         streamerServer: StreamerServer?) async throws(AddressPolicy.Refusal) -> [SocketAddress]? {
        guard endpoint.namedBy == .feed, connectTo.address(host: endpoint.host, port: endpoint.port) == nil,
              streamerServer?.matches(host: endpoint.host, port: endpoint.port) != true else { return nil }
        do {
            return try await AddressPolicy.publicAddresses(of: endpoint.host, port: endpoint.port)
        } catch {
            throw AddressPolicy.Refusal(description: "\(endpoint): refused: \(error.description)")
        }
    }

    /// Connects to the checked addresses in turn (the very addresses the policy passed, so a
    /// second lookup cannot lead elsewhere), or by name when nothing was pinned.
    private static func open<Output: Sendable>(
        _ bootstrap: ClientBootstrap, target: (host: String, port: Int), pinned: [SocketAddress]?,
        initializer: @escaping @Sendable (Channel) -> EventLoopFuture<Output>
    ) async throws -> Output {
        guard let pinned else {
            return try await bootstrap.connect(host: target.host, port: target.port, channelInitializer: initializer)
        }
        var lastError: any Error = AddressPolicy.Refusal(description: "\(target.host): no address")
        for address in pinned.prefix(4) {
            do {
                return try await bootstrap.connect(to: address, channelInitializer: initializer)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}
