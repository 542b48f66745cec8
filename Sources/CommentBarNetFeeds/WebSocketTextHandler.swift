import NIOCore
import NIOWebSocket

/// Turns WebSocket frames into the plain messages the feeds read, and back:
/// inbound text (or binary) messages become one `ByteBuffer` each, or one per line
/// when `splitsLines` (IRC over WebSocket may pack several lines in one message);
/// outbound buffers become masked text frames (clients must mask). It also answers
/// pings, completes the close handshake, and pings a silent server to find dead links.
final class WebSocketTextHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    let splitsLines: Bool
    let maxLineBytes: Int
    let problems: InputProblemLog
    private var closeSent = false
    private var pingOutstanding = false

    init(splitsLines: Bool, maxLineBytes: Int = IRCLineDecoder.defaultMaxLineBytes, problems: InputProblemLog) {
        self.splitsLines = splitsLines
        self.maxLineBytes = maxLineBytes
        self.problems = problems
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        pingOutstanding = false
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
        while rest.readableBytes > 0 {
            let view = rest.readableBytesView
            let length = (view.firstIndex(of: UInt8(ascii: "\n")) ?? view.endIndex) - view.startIndex
            guard var line = rest.readSlice(length: length) else { break }
            rest.moveReaderIndex(forwardBy: min(1, rest.readableBytes))
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            if line.readableBytes > maxLineBytes {
                problems.note("cut a line longer than \(maxLineBytes) bytes")
                line.moveWriterIndex(to: line.readerIndex + maxLineBytes)
            }
            if line.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(line)) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: unwrapOutboundIn(data))
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    /// Closing from our side (the feed stopped) says goodbye with a close frame first.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !closeSent, context.channel.isActive {
            closeSent = true
            var code = ByteBuffer()
            code.write(webSocketErrorCode: .goingAway)
            send(.connectionClose, data: code, context: context)
        }
        context.close(mode: mode, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if pingOutstanding {
            context.close(promise: nil)
        } else {
            pingOutstanding = true
            send(.ping, data: ByteBuffer(string: "commentbar"), context: context)
        }
    }

    private func send(_ opcode: WebSocketOpcode, data: ByteBuffer, context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}
