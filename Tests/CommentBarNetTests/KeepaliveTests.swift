// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOEmbedded
import NIOWebSocket
import XCTest
@testable import CommentBarNet

/// One keepalive handler serves both framings: silence → ping; still silent → close;
/// any inbound message clears the ping.
final class KeepaliveTests: XCTestCase {
    private let idle = IdleStateHandler.IdleStateEvent.read

    /// An embedded channel is active only once connected.
    private func connected(_ handlers: [any ChannelHandler]) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handlers: handlers)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    func testLinesSilenceSendsOnePingThenCloses() throws {
        let channel = try connected([KeepaliveHandler<ByteBuffer>(ping: { ByteBuffer(string: "PING :x") })])
        channel.pipeline.fireUserInboundEventTriggered(idle)
        XCTAssertEqual(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }, "PING :x")
        XCTAssertTrue(channel.isActive)
        channel.pipeline.fireUserInboundEventTriggered(idle)
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self))
        XCTAssertFalse(channel.isActive)
    }

    func testAnyMessageAnswersThePing() throws {
        let channel = try connected([KeepaliveHandler<ByteBuffer>(ping: { ByteBuffer(string: "PING :x") })])
        channel.pipeline.fireUserInboundEventTriggered(idle)
        _ = try channel.readOutbound(as: ByteBuffer.self)
        try channel.writeInbound(ByteBuffer(string: "PONG :x"))
        XCTAssertEqual(try channel.readInbound(as: ByteBuffer.self).map { String(buffer: $0) }, "PONG :x")
        channel.pipeline.fireUserInboundEventTriggered(idle)
        XCTAssertTrue(channel.isActive)  // a new ping, not a close
        XCTAssertNotNil(try channel.readOutbound(as: ByteBuffer.self))
        _ = try channel.finish()
    }

    func testWebSocketPingIsAMaskedPingFrame() throws {
        let channel = try connected([KeepaliveHandler<WebSocketFrame>(ping: WebSocketMessageHandler.pingFrame)])
        channel.pipeline.fireUserInboundEventTriggered(idle)
        let ping = try XCTUnwrap(try channel.readOutbound(as: WebSocketFrame.self))
        XCTAssertEqual(ping.opcode, .ping)
        XCTAssertNotNil(ping.maskKey)
        XCTAssertTrue(channel.isActive)
        channel.pipeline.fireUserInboundEventTriggered(idle)
        XCTAssertFalse(channel.isActive)
    }

    func testOtherEventsPassThrough() throws {
        final class Recorder: ChannelInboundHandler {
            typealias InboundIn = ByteBuffer
            var events: [String] = []
            func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) { events.append("\(event)") }
        }
        let recorder = Recorder()
        let channel = try connected([KeepaliveHandler<ByteBuffer>(ping: { ByteBuffer() }), recorder])
        channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.write)
        XCTAssertEqual(recorder.events.count, 1)
        XCTAssertTrue(channel.isActive)
        _ = try channel.finish()
    }
}
