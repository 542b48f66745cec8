// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// A whole request (head and body) must arrive within `limit` of its first byte, else the
/// connection closes: a client that trickles a header byte every few seconds (slowloris) holds
/// its slot for `limit` at most. The idle timer cannot do this, since every byte resets it. Sits
/// before the HTTP decoder (it sees bytes); the server's HTTP handler says when a request ended, and
/// the next byte starts the next deadline. Removed when the connection becomes a WebSocket.
public final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer

    public static let name = "request-deadline"
    private let limit: TimeAmount
    private var timer: Scheduled<Void>?

    public init(limit: TimeAmount) {
        self.limit = limit
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if timer == nil {
            let channel = context.channel
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { channel.close(promise: nil) }
        }
        context.fireChannelRead(data)
    }

    /// The request came whole: its deadline is over.
    public func requestEnded() {
        timer?.cancel()
        timer = nil
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        requestEnded()
    }
}
