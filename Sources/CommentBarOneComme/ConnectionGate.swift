// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import Synchronization

/// At most `limit` connections open at once over all of a server's listening sockets: one more is
/// closed as it is accepted, before a byte is read, so a flood of connections costs the accepts
/// only. Sits in each listening socket's pipeline.
final class ConnectionGate: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    let limit: Int
    private let open = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    var current: Int { open.load(ordering: .relaxed) }
    var refused: Int { refusals.load(ordering: .relaxed) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        guard open.wrappingAdd(1, ordering: .relaxed).newValue <= limit else {
            open.wrappingSubtract(1, ordering: .relaxed)
            refusals.wrappingAdd(1, ordering: .relaxed)
            child.close(promise: nil)
            return
        }
        child.closeFuture.whenComplete { [self] _ in open.wrappingSubtract(1, ordering: .relaxed) }
        context.fireChannelRead(data)
    }
}
