import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Opens a connection to a feed endpoint and hands back a channel of whole messages:
/// inbound buffers are IRC lines (`.lines`) or WebSocket messages (`.messages`),
/// outbound buffers are lines or messages to send. TCP, TLS and WebSocket differences
/// stay in the pipeline, so the feeds only see messages.
enum FeedConnector {
    enum Framing: Sendable {
        /// IRC: one inbound buffer per line, on TCP or inside WebSocket messages.
        case lines
        /// One inbound buffer per WebSocket message (the JSON service).
        case messages
    }

    typealias MessageChannel = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    struct UpgradeRefused: Error, CustomStringConvertible {
        var description: String { "the server did not accept the WebSocket upgrade" }
    }

    static let connectTimeout = TimeAmount.seconds(10)
    /// Silence after which a keepalive ping is sent, and after twice which the link counts as dead.
    static let idleTimeout = TimeAmount.seconds(150)
    /// Whole WebSocket messages above this are refused (the connection restarts).
    static let maxWebSocketMessageBytes = 1 << 20

    static func connect(to endpoint: FeedEndpoint, framing: Framing, tls: NIOSSLContext?,
                        problems: InputProblemLog) async throws -> MessageChannel {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.so_keepalive), value: 1)
        let serverHostname = TLSSettings.serverHostname(for: endpoint.host)
        switch endpoint.transport {
        case .tcp:
            return try await bootstrap.connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    }
                    try pipeline.addHandlers([
                        ByteToMessageHandler(IRCLineDecoder(problems: problems)),
                        MessageToByteHandler(IRCLineEncoder()),
                        IdleStateHandler(readTimeout: idleTimeout),
                        IRCKeepaliveHandler(),
                    ])
                    return try MessageChannel(wrappingChannelSynchronously: channel)
                }
            }
        case .webSocket(let path):
            let upgrade: EventLoopFuture<MessageChannel?> = try await bootstrap.connect(
                host: endpoint.host, port: endpoint.port
            ) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    }
                    let upgrader = NIOTypedWebSocketClientUpgrader<MessageChannel?>(
                        maxFrameSize: maxWebSocketMessageBytes,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandlers([
                                    NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024,
                                        maxAccumulatedFrameSize: maxWebSocketMessageBytes),
                                    IdleStateHandler(readTimeout: idleTimeout),
                                    WebSocketTextHandler(splitsLines: framing == .lines, problems: problems),
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
                    return try pipeline.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
            guard let channel = try await upgrade.get() else { throw UpgradeRefused() }
            return channel
        }
    }
}
