// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// A whole request (head and body) must arrive within `limit` of its first byte, else the
/// connection closes: a client that trickles a header byte every few seconds (slowloris) holds
/// its slot for `limit` at most. The idle timer cannot do this, since every byte resets it. Sits
/// before the HTTP decoder (it sees bytes); `ControlHTTPHandler` says when a request ended, and
/// the next byte starts the next deadline. Removed when the connection becomes a WebSocket.
final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    static let name = "control-request-deadline"
    private let limit: TimeAmount
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if timer == nil {
            let channel = context.channel
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { channel.close(promise: nil) }
        }
        context.fireChannelRead(data)
    }

    /// The request came whole: its deadline is over.
    func requestEnded() {
        timer?.cancel()
        timer = nil
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        requestEnded()
    }
}
