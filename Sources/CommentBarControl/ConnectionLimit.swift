// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import Synchronization

/// The connections of one server, over all of its listening sockets: how many are open, and
/// how many were refused for being one too many.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)
    private let refusedCount = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    var current: Int { open.load(ordering: .relaxed) }
    var refused: Int { refusedCount.load(ordering: .relaxed) }

    /// Counts one more; false (and counted as refused) when that would pass the limit.
    func admit() -> Bool {
        guard open.wrappingAdd(1, ordering: .relaxed).newValue <= limit else {
            open.wrappingSubtract(1, ordering: .relaxed)
            refusedCount.wrappingAdd(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func closed() {
        open.wrappingSubtract(1, ordering: .relaxed)
    }
}

/// At most `counter.limit` connections at once: one more is closed as soon as it is accepted
/// (before a byte is read), so a flood of connections costs nothing but the accepts. Sits in
/// each listening socket's pipeline, before NIO's acceptor.
final class ConnectionLimit: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let counter: ConnectionCounter

    init(counter: ConnectionCounter) {
        self.counter = counter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        guard counter.admit() else {
            child.close(promise: nil)
            return
        }
        let counter = self.counter
        child.closeFuture.whenComplete { _ in counter.closed() }
        context.fireChannelRead(data)
    }
}
