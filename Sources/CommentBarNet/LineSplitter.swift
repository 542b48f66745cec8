// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// Cuts lines out of bytes, however they were cut across reads: LF or CRLF ends a line
/// (the CR is dropped) and empty lines are skipped. A line longer than `maxLineBytes` is
/// cut to that length and the rest of it is discarded, so a hostile peer cannot grow a
/// buffer. Lines over TCP and lines packed into WebSocket messages both use it.
package struct LineSplitter {
    /// IRCv3: up to 8191 bytes of tags plus the classic 512-byte message.
    package static let defaultMaxLineBytes = 8191 + 512

    package let maxLineBytes: Int
    /// The head of an over-long line was delivered; drop bytes up to the next LF.
    private var discardingRest = false

    package init(maxLineBytes: Int = LineSplitter.defaultMaxLineBytes) {
        self.maxLineBytes = maxLineBytes
    }

    /// The next line taken out of `buffer`, and whether it was cut; nil when more bytes are
    /// needed. `atEnd`: no more bytes follow (end of stream, or of one WebSocket message),
    /// so what is left is the last line.
    package mutating func nextLine(from buffer: inout ByteBuffer, atEnd: Bool) -> (line: ByteBuffer, wasCut: Bool)? {
        while buffer.readableBytes > 0 {
            let view = buffer.readableBytesView
            guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
                guard atEnd || buffer.readableBytes > maxLineBytes else { return nil }
                let wasCut = buffer.readableBytes > maxLineBytes
                let head = discardingRest ? nil : buffer.readSlice(length: min(buffer.readableBytes, maxLineBytes))
                buffer.moveReaderIndex(to: buffer.writerIndex)
                discardingRest = wasCut && !atEnd
                if let line = head.flatMap(Self.withoutCR) { return (line, wasCut) }
                return nil
            }
            let length = newline - view.startIndex
            if discardingRest {
                buffer.moveReaderIndex(forwardBy: length + 1)
                discardingRest = false
                continue
            }
            let head = buffer.readSlice(length: min(length, maxLineBytes))
            buffer.moveReaderIndex(forwardBy: length - (head?.readableBytes ?? 0) + 1)
            if let line = head.flatMap(Self.withoutCR) { return (line, length > maxLineBytes) }
        }
        return nil
    }

    /// The line without a final CR; nil if nothing is left.
    private static func withoutCR(_ line: ByteBuffer) -> ByteBuffer? {
        var line = line
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        return line.readableBytes > 0 ? line : nil
    }
}

/// Splits a TCP byte stream into lines (an unterminated last line is still a line).
package struct LineFrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = ByteBuffer

    private var splitter: LineSplitter
    private let problems: InputProblemLog

    package init(maxLineBytes: Int = LineSplitter.defaultMaxLineBytes, problems: InputProblemLog) {
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        self.problems = problems
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard deliverNext(from: &buffer, atEnd: false, context: context) else { return .needMoreData }
        return .continue
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while deliverNext(from: &buffer, atEnd: true, context: context) {}
        return .needMoreData
    }

    private mutating func deliverNext(from buffer: inout ByteBuffer, atEnd: Bool,
                                      context: ChannelHandlerContext) -> Bool {
        guard let (line, wasCut) = splitter.nextLine(from: &buffer, atEnd: atEnd) else { return false }
        if wasCut { problems.note("cut a line longer than \(splitter.maxLineBytes) bytes") }
        context.fireChannelRead(wrapInboundOut(line))
        return true
    }
}

/// Ends each outgoing line with CRLF.
package struct LineFrameEncoder: MessageToByteEncoder {
    package typealias OutboundIn = ByteBuffer

    package init() {}

    package func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        out.writeImmutableBuffer(data)
        out.writeStaticString("\r\n")
    }
}
