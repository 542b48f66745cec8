// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOWebSocket

/// One template page on `/sub`, on the server's event loop: sent, as text messages, the types it
/// subscribed to (`?p=comments,deleted,…`; all without `p`). Read-only: what a page sends is
/// ignored (pings are answered, a close is returned). What it has not taken yet is bounded
/// (`maxQueued`, `maxQueuedBytes`); a page that stops reading is closed, so it never holds memory
/// or slows the bar. A quiet link is pinged, and one that stays silent closed.
final class OneCommeClient: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    static let maxQueued = 256
    static let maxQueuedBytes = 1 << 20

    private let hub: OneCommeHub
    /// The message types asked for; nil: every type.
    private let subscribed: Set<String>?
    private var channel: (any Channel)?
    private var queued = 0
    private var queuedBytes = 0
    private var closing = false

    init(hub: OneCommeHub, subscribed: Set<String>?) {
        self.hub = hub
        self.subscribed = subscribed
    }

    /// The types of `p` (`comments,deleted` or several `p=`), from a request's target; nil when absent.
    static func subscriptions(uri: String) -> Set<String>? {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        var types: Set<String> = []
        var named = false
        for pair in query.split(separator: "&") where pair.hasPrefix("p=") {
            named = true
            let value = TemplatePath.decoded(pair.dropFirst(2)) ?? ""
            for type in value.split(separator: ",").prefix(64) { types.insert(String(type.prefix(64))) }
        }
        return named ? types : nil
    }

    func wants(_ type: String) -> Bool { subscribed?.contains(type) ?? true }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        hub.add(self)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.remove(self)
        channel = nil
        context.fireChannelInactive()
    }

    /// One message (on the event loop), or the client is closed if it is too far behind.
    func send(_ message: ByteBuffer) {
        guard let channel, !closing else { return }
        guard queued < Self.maxQueued, queuedBytes + message.readableBytes <= Self.maxQueuedBytes else {
            hub.drop(self)
            return close(channel, code: .policyViolation, reason: "too slow: \(queued) messages waiting")
        }
        let size = message.readableBytes
        queued += 1
        queuedBytes += size
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.queued -= 1
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
            closing = true
            var data = frame.unmaskedData
            let code = data.readSlice(length: min(2, data.readableBytes)) ?? ByteBuffer()
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        default:
            // Read-only: nothing a page sends is acted on.
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        if idle == .write {
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "onecomme"))),
                                  promise: nil)
        } else {
            close(context.channel, code: .goingAway, reason: "no answer to pings")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func close(_ channel: any Channel, code: WebSocketErrorCode, reason: String) {
        guard !closing else { return }
        closing = true
        hub.remove(self)
        var data = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
            .assumeIsolated().whenComplete { _ in channel.close(promise: nil) }
        // A page that reads nothing never takes the close frame.
        channel.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
