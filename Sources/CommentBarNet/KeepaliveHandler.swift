// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// Keeps a quiet connection honest, whatever its framing: after `IdleStateHandler`'s read
/// timeout passes without an inbound message, send `ping` (an IRC PING line, a WebSocket
/// ping frame); if the next timeout passes still silent, close the connection so the feed
/// reconnects. Any inbound message counts as an answer.
package final class KeepaliveHandler<Message>: ChannelDuplexHandler {
    package typealias InboundIn = Message
    package typealias InboundOut = Message
    package typealias OutboundIn = Message
    package typealias OutboundOut = Message

    private let makePing: () -> Message
    private var pingSent = false

    package init(ping makePing: @escaping () -> Message) {
        self.makePing = makePing
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pingSent = false
        context.fireChannelRead(data)
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if pingSent {
            context.close(promise: nil)
        } else {
            pingSent = true
            context.writeAndFlush(wrapOutboundOut(makePing()), promise: nil)
        }
    }
}
