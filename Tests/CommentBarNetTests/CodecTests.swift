// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOEmbedded
import NIOWebSocket
import XCTest
@testable import CommentBarNet

final class CodecTests: XCTestCase {
    private func linesChannel(maxLineBytes: Int = 64) throws -> EmbeddedChannel {
        let problems = InputProblemLog(source: "test")
        return EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maxLineBytes: maxLineBytes, problems: problems)))
    }

    private func readLines(_ channel: EmbeddedChannel) throws -> [String] {
        var lines: [String] = []
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { lines.append(String(buffer: buffer)) }
        return lines
    }

    func testLinesSplitAcrossReads() throws {
        let channel = try linesChannel()
        for chunk in ["PING :a\r", "\nPRIVMSG #c :hel", "lo\r\n\r\n", "X :y\nPART"] {
            try channel.writeInbound(ByteBuffer(string: chunk))
        }
        XCTAssertEqual(try readLines(channel), ["PING :a", "PRIVMSG #c :hello", "X :y"])
        _ = try channel.finish()
    }

    func testUnterminatedLastLineIsDeliveredAtClose() throws {
        let channel = try linesChannel()
        try channel.writeInbound(ByteBuffer(string: "A\r\nB"))
        XCTAssertEqual(try readLines(channel), ["A"])
        _ = try channel.finish()
        XCTAssertEqual(try readLines(channel), ["B"])
    }

    func testOverlongLinesAreCutAndBufferStaysBounded() throws {
        let channel = try linesChannel(maxLineBytes: 10)
        try channel.writeInbound(ByteBuffer(string: "0123456789ABCDEF"))
        try channel.writeInbound(ByteBuffer(string: String(repeating: "z", count: 10_000)))
        try channel.writeInbound(ByteBuffer(string: "tail\nnext\n0123456789XYZ\n"))
        XCTAssertEqual(try readLines(channel), ["0123456789", "next", "0123456789"])
        _ = try channel.finish()
    }

    func testEncoderEndsLinesWithCRLF() throws {
        let channel = EmbeddedChannel(handler: MessageToByteHandler(LineFrameEncoder()))
        try channel.writeOutbound(ByteBuffer(string: "JOIN #c"))
        XCTAssertEqual(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }, "JOIN #c\r\n")
        _ = try channel.finish()
    }

    private func textFrame(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
    }

    func testWebSocketMessagesSplitIntoLines() throws {
        let channel = EmbeddedChannel(handler: WebSocketMessageHandler(splitsLines: true, maxLineBytes: 8,
                                                                    problems: InputProblemLog(source: "t")))
        try channel.writeInbound(textFrame("PING :x\r\n:a PRIVMSG #c :b\r\n0123456789"))
        XCTAssertEqual(try readLines(channel), ["PING :x", ":a PRIVM", "01234567"])
        _ = try channel.finish()
    }

    func testWebSocketWholeMessagesPingAndMaskedWrites() throws {
        let channel = EmbeddedChannel(handler: WebSocketMessageHandler(splitsLines: false, problems: InputProblemLog(source: "t")))
        try channel.writeInbound(textFrame("{\"a\":1}\n{\"b\":2}"))
        XCTAssertEqual(try readLines(channel), ["{\"a\":1}\n{\"b\":2}"])
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "p")))
        let pong = try XCTUnwrap(try channel.readOutbound(as: WebSocketFrame.self))
        XCTAssertEqual(pong.opcode, .pong)
        XCTAssertNotNil(pong.maskKey)
        XCTAssertEqual(String(buffer: pong.data), "p")  // the encoder applies the mask
        try channel.writeOutbound(ByteBuffer(string: "hello"))
        let sent = try XCTUnwrap(try channel.readOutbound(as: WebSocketFrame.self))
        XCTAssertEqual(sent.opcode, .text)
        XCTAssertNotNil(sent.maskKey)
        XCTAssertEqual(String(buffer: sent.data), "hello")
        _ = try channel.finish()
    }

    func testWebSocketCloseIsEchoedAndClosesChannel() throws {
        let channel = EmbeddedChannel(handler: WebSocketMessageHandler(splitsLines: false, problems: InputProblemLog(source: "t")))
        var code = ByteBuffer()
        code.write(webSocketErrorCode: .normalClosure)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
        let echo = try XCTUnwrap(try channel.readOutbound(as: WebSocketFrame.self))
        XCTAssertEqual(echo.opcode, .connectionClose)
        XCTAssertFalse(channel.isActive)
    }

    /// Records what reaches the end of the pipeline, in order (NIOAsyncChannel sits there).
    private final class EventRecorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var events: [String] = []
        func errorCaught(context: ChannelHandlerContext, error: any Error) { events.append("error: \(error)") }
        func channelInactive(context: ChannelHandlerContext) { events.append("inactive") }
    }

    func testOversizedMessageIsReportedBeforeTheClose1009() throws {
        for refusal: any Error in [NIOWebSocketError.invalidFrameLength,
                                   NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge] {
            let recorder = EventRecorder()
            let channel = EmbeddedChannel(handlers: [
                WebSocketMessageHandler(splitsLines: false, problems: InputProblemLog(source: "t")), recorder,
            ])
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            channel.pipeline.fireErrorCaught(refusal)
            XCTAssertEqual(recorder.events, ["error: a message larger than 1 MiB was refused (close 1009)", "inactive"])
            let close = try XCTUnwrap(try channel.readOutbound(as: WebSocketFrame.self))
            XCTAssertEqual(close.opcode, .connectionClose)
            var status = close.data  // the encoder applies the mask
            XCTAssertEqual(status.readWebSocketErrorCode(), .messageTooLarge)
            XCTAssertFalse(channel.isActive)
        }
    }
}
