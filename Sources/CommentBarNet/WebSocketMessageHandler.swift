// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOWebSocket

/// Turns WebSocket frames into the plain messages the feeds read, and back:
/// inbound text (or binary) messages become one `ByteBuffer` each, or one per line
/// when `splitsLines` (IRC over WebSocket may pack several lines in one message);
/// outbound buffers become masked text frames (clients must mask). It also answers
/// pings and completes the close handshake. Silence is `KeepaliveHandler`'s job.
package final class WebSocketMessageHandler: ChannelDuplexHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = WebSocketFrame

    let splitsLines: Bool
    let maxLineBytes: Int
    let problems: InputProblemLog
    private var closeSent = false

    package init(splitsLines: Bool, maxLineBytes: Int = LineSplitter.defaultMaxLineBytes, problems: InputProblemLog) {
        self.splitsLines = splitsLines
        self.maxLineBytes = maxLineBytes
        self.problems = problems
    }

    /// The keepalive ping a client sends on a silent link.
    package static func pingFrame() -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: ByteBuffer(string: "commentbar"))
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            deliver(frame.unmaskedData, context: context)
        case .ping:
            send(.pong, data: frame.unmaskedData, context: context)
        case .connectionClose:
            if !closeSent {
                // Echo the status code, then close: the server asked for it.
                var status = frame.unmaskedData
                let code = status.readSlice(length: min(2, status.readableBytes)) ?? ByteBuffer()
                send(.connectionClose, data: code, context: context)
                closeSent = true
            }
            context.close(promise: nil)
        default:
            break
        }
    }

    private func deliver(_ payload: ByteBuffer, context: ChannelHandlerContext) {
        guard splitsLines else {
            context.fireChannelRead(wrapInboundOut(payload))
            return
        }
        var rest = payload
        var splitter = LineSplitter(maxLineBytes: maxLineBytes)
        while let (line, wasCut) = splitter.nextLine(from: &rest, atEnd: true) {
            if wasCut { problems.note("cut a line longer than \(maxLineBytes) bytes") }
            context.fireChannelRead(wrapInboundOut(line))
        }
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: unwrapOutboundIn(data))
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    /// Closing from our side (the feed stopped) says goodbye with a close frame first.
    package func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !closeSent, context.channel.isActive {
            closeSent = true
            var code = ByteBuffer()
            code.write(webSocketErrorCode: .goingAway)
            send(.connectionClose, data: code, context: context)
        }
        context.close(mode: mode, promise: promise)
    }

    /// Protocol errors from NIO's frame decoder and aggregator (its automatic error handling
    /// is off, see FeedConnector): the error goes on first, so the feed ends with it, and
    /// only then close 1009 (message too large) or 1002 goes to the server and the link
    /// closes. Closing first would end the feed as if the server had closed it.
    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let code: WebSocketErrorCode
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            code = .messageTooLarge
            context.fireErrorCaught(FeedConnector.MessageTooLarge())
        case is NIOWebSocketError:
            code = .protocolError
            context.fireErrorCaught(error)
        default:
            context.fireErrorCaught(error)
            return
        }
        if !closeSent {
            closeSent = true
            var status = ByteBuffer()
            status.write(webSocketErrorCode: code)
            send(.connectionClose, data: status, context: context)
        }
        context.close(promise: nil)
    }

    private func send(_ opcode: WebSocketOpcode, data: ByteBuffer, context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}
