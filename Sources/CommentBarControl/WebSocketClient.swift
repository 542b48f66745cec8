// SPDX-License-Identifier: GPL-2.0-or-later
import Logging
import NIOCore
import NIOWebSocket

/// One client of `GET /api/events`, on the server's event loop: every event is sent to it as a
/// text message. What it has not taken yet is bounded (`maxQueuedMessages`, `maxQueuedBytes`):
/// a client that stops reading is dropped with a close notice, so it never holds memory or slows
/// the bar. It answers pings and the close handshake, pings a quiet link, and closes a dead one.
final class WebSocketClient: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    static let maxQueuedMessages = 256
    static let maxQueuedBytes = 1 << 20
    /// RFC 6455's "policy violation": it fell behind.
    static let droppedCode = WebSocketErrorCode.policyViolation

    private let hub: EventHub
    private let log: Logger
    private var channel: (any Channel)?
    private var queuedMessages = 0
    private var queuedBytes = 0
    private var closing = false

    init(hub: EventHub, log: Logger) {
        self.hub = hub
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        hub.add(self)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.remove(self)
        channel = nil
        context.fireChannelInactive()
    }

    /// Sends one event (on the event loop), or drops this client if it is too far behind.
    func send(_ message: ByteBuffer) {
        guard let channel, !closing else { return }
        guard queuedMessages < Self.maxQueuedMessages, queuedBytes + message.readableBytes <= Self.maxQueuedBytes else {
            log.warning("control: an event client fell \(queuedMessages) events behind: dropped")
            close(channel, code: Self.droppedCode, reason: "too slow: more than \(Self.maxQueuedMessages) events waiting")
            hub.drop(self)
            return
        }
        queuedMessages += 1
        queuedBytes += message.readableBytes
        let size = message.readableBytes
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.queuedMessages -= 1
            self.queuedBytes -= size
        }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: message), promise: written)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
            // Nothing is read from clients: commands are HTTP requests.
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch idle {
        case .write:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "commentbar"))),
                                  promise: nil)
        case .read, .all:
            // Not even a pong for a while: the client is gone.
            close(context.channel, code: .goingAway, reason: "no answer to pings")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Closes this client with `code` and `reason` (on the event loop).
    func close(code: WebSocketErrorCode, reason: String) {
        guard let channel else { return }
        close(channel, code: code, reason: reason)
    }

    /// A close frame with a reason, then the connection closes: at once if the frame went out,
    /// else after a moment (a stalled client never takes it).
    private func close(_ channel: any Channel, code: WebSocketErrorCode, reason: String) {
        guard !closing else { return }
        closing = true
        hub.remove(self)
        var data = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
            .assumeIsolated().whenComplete { _ in channel.close(promise: nil) }
        channel.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
