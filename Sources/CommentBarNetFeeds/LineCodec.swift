import NIOCore

/// Splits a TCP byte stream into IRC lines (LF or CRLF; the CR is dropped), however
/// the lines were cut across reads. A line longer than `maxLineBytes` is cut to that
/// length and the rest of it is discarded, so a hostile server cannot grow the buffer.
struct IRCLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// IRCv3: up to 8191 bytes of tags plus the classic 512-byte message.
    static let defaultMaxLineBytes = 8191 + 512

    let maxLineBytes: Int
    let problems: InputProblemLog
    /// The head of an over-long line was delivered; drop bytes up to the next LF.
    private var discardingRest = false

    init(maxLineBytes: Int = IRCLineDecoder.defaultMaxLineBytes, problems: InputProblemLog) {
        self.maxLineBytes = maxLineBytes
        self.problems = problems
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maxLineBytes {
                if !discardingRest, let head = buffer.readSlice(length: maxLineBytes) {
                    problems.note("cut a line longer than \(maxLineBytes) bytes")
                    deliver(head, context: context)
                    discardingRest = true
                }
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            }
            return .needMoreData
        }
        let length = newline - view.startIndex
        if discardingRest {
            buffer.moveReaderIndex(forwardBy: length + 1)
            discardingRest = false
            return .continue
        }
        guard let line = buffer.readSlice(length: min(length, maxLineBytes)) else { return .needMoreData }
        if length > maxLineBytes { problems.note("cut a line longer than \(maxLineBytes) bytes") }
        buffer.moveReaderIndex(forwardBy: length - line.readableBytes + 1)
        deliver(line, context: context)
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // An unterminated last line is still a line.
        if buffer.readableBytes > 0, !discardingRest, let rest = buffer.readSlice(length: buffer.readableBytes) {
            deliver(rest, context: context)
        }
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }

    private func deliver(_ line: ByteBuffer, context: ChannelHandlerContext) {
        var line = line
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        guard line.readableBytes > 0 else { return }
        context.fireChannelRead(wrapInboundOut(line))
    }
}

/// Ends each outgoing IRC line with CRLF.
struct IRCLineEncoder: MessageToByteEncoder {
    typealias OutboundIn = ByteBuffer

    func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        out.writeImmutableBuffer(data)
        out.writeStaticString("\r\n")
    }
}

/// Keeps a quiet IRC connection honest: after `readTimeout` without a byte, send a PING;
/// if the next timeout passes still silent, close the connection so the feed reconnects.
final class IRCKeepaliveHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var pingSent = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pingSent = false
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if pingSent {
            context.close(promise: nil)
        } else {
            pingSent = true
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "PING :commentbar")), promise: nil)
        }
    }
}
