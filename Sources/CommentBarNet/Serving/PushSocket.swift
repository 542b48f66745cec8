// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOWebSocket

/// What a `PushSocket` tells the server that owns it, always on the socket's event loop.
public protocol PushSocketOwner: AnyObject {
    func opened(_ socket: PushSocket)
    func closed(_ socket: PushSocket)
    /// `socket` fell too far behind (`queued` messages unsent) and is being closed.
    func fellBehind(_ socket: PushSocket, queued: Int)
}

/// One WebSocket client of a local server that only pushes (the control server's event API,
/// the OneComme templates' `/sub`): text messages go out, nothing a client sends is acted on.
/// What it has not taken yet is bounded (`maxQueuedMessages`, `maxQueuedBytes`): a client that
/// stops reading is closed with RFC 6455's "policy violation", so it never holds memory or slows
/// the bar. It answers pings and the close handshake, pings a quiet link (an `IdleStateHandler`
/// before it says when), and closes one that stays silent.
public final class PushSocket: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = WebSocketFrame
    public typealias OutboundOut = WebSocketFrame

    public static let maxQueuedMessages = 256
    public static let maxQueuedBytes = 1 << 20

    /// The topics this client asked for; nil: every one.
    public let topics: Set<String>?
    private let owner: any PushSocketOwner
    private let pingText: String
    private var channel: (any Channel)?
    private var queuedMessages = 0
    private var queuedBytes = 0
    private var closing = false

    /// `pingText`: the payload of the pings that keep a quiet link alive (names the server).
    public init(owner: any PushSocketOwner, topics: Set<String>? = nil, pingText: String) {
        self.owner = owner
        self.topics = topics
        self.pingText = pingText
    }

    public func wants(_ topic: String) -> Bool { topics?.contains(topic) ?? true }

    public func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        owner.opened(self)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        owner.closed(self)
        channel = nil
        context.fireChannelInactive()
    }

    /// Sends one message (on the event loop), or closes this client if it is too far behind.
    public func send(_ message: ByteBuffer) {
        guard let channel, !closing else { return }
        let size = message.readableBytes
        guard queuedMessages < Self.maxQueuedMessages, queuedBytes + size <= Self.maxQueuedBytes else {
            owner.fellBehind(self, queued: queuedMessages)
            close(channel, code: .policyViolation, reason: "too slow: \(queuedMessages) messages waiting")
            return
        }
        queuedMessages += 1
        queuedBytes += size
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.queuedMessages -= 1
            self.queuedBytes -= size
        }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: message), promise: written)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)),
                                  promise: nil)
        case .connectionClose:
            // The client is leaving: answer with its code, then close.
            var data = frame.unmaskedData
            let code = data.readSlice(length: min(2, data.readableBytes)) ?? ByteBuffer()
            closing = true
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        default:
            // Push only: what a client sends is never acted on (commands are HTTP requests).
            break
        }
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch idle {
        case .write:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: pingText))),
                                  promise: nil)
        case .read, .all:
            // Not even a pong for a while: the client is gone.
            close(context.channel, code: .goingAway, reason: "no answer to pings")
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Closes this client with `code` and `reason` (on the event loop).
    public func close(code: WebSocketErrorCode, reason: String) {
        guard let channel else { return }
        close(channel, code: code, reason: reason)
    }

    /// A close frame with a reason, then the connection closes: at once if the frame went out,
    /// else after a moment (a stalled client never takes it).
    private func close(_ channel: any Channel, code: WebSocketErrorCode, reason: String) {
        guard !closing else { return }
        closing = true
        owner.closed(self)
        var data = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
            .assumeIsolated().whenComplete { _ in channel.close(promise: nil) }
        channel.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
