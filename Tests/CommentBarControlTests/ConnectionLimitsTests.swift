// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarNet
import NIOCore
import NIOEmbedded
import Testing

/// The slots and the request deadline on NIO's embedded channels and loop (time moved by hand).
@Suite struct ConnectionLimitsTests {
    /// A connection past the unproven limit takes the place of the oldest unproven one; proven
    /// ones are never pushed out; only when every slot is proven is a new one refused.
    /// An open connection (embedded).
    static func connected() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// An open connection whose requests have 10 s each.
    static func withDeadline() throws -> (EmbeddedChannel, RequestDeadline) {
        let channel = try connected()
        let deadline = RequestDeadline(limit: .seconds(10))
        try channel.pipeline.syncOperations.addHandler(deadline)
        return (channel, deadline)
    }

    @Test func unprovenConnectionsMakeRoomProvenOnesKeepTheirs() throws {
        let slots = ConnectionSlots(limit: 4, unprovenLimit: 2)
        let channels = try (0..<7).map { _ in try Self.connected() }
        #expect(slots.admit(channels[0]) && slots.admit(channels[1]))
        slots.proven(channels[0])
        #expect(slots.admit(channels[2]))
        #expect(slots.admit(channels[3]), "the third unproven one takes the second's place")
        #expect(!channels[1].isActive && channels[2].isActive && channels[0].isActive)
        #expect(slots.evicted == 1 && slots.current == 3)
        slots.proven(channels[2])
        slots.proven(channels[3])
        #expect(slots.admit(channels[4]))
        slots.proven(channels[4])
        #expect(slots.current == 4)
        #expect(!slots.admit(channels[5]), "every slot proven: refused")
        #expect(slots.refused == 1 && channels.prefix(5).filter(\.isActive).count == 4)
        slots.closed(channels[4])
        #expect(slots.admit(channels[6]))
    }

    @Test func aRequestMustComeWholeWithinItsDeadline() throws {
        let (channel, _) = try Self.withDeadline()
        let loop = channel.embeddedEventLoop
        // A byte every 3 s: an idle timer would never fire.
        for _ in 0..<3 {
            try channel.writeInbound(ByteBuffer(string: "G"))
            loop.advanceTime(by: .seconds(3))
            #expect(channel.isActive)
        }
        loop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "closed 10 s after the first byte")
    }

    @Test func eachRequestHasItsOwnDeadline() throws {
        let (channel, deadline) = try Self.withDeadline()
        let loop = channel.embeddedEventLoop
        for _ in 0..<3 {
            try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n"))
            loop.advanceTime(by: .seconds(9))
            deadline.requestEnded()
            // A keep-alive connection may wait between requests (the idle timer's business).
            loop.advanceTime(by: .seconds(20))
            #expect(channel.isActive)
        }
        _ = try channel.finish()
    }
}
