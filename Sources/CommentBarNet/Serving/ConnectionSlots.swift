// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import Synchronization

/// The connections of one server, over all of its listening sockets. At most `limit` at once,
/// and at most `unprovenLimit` of them that have not yet shown a credential: a new connection
/// past either takes the place of the oldest such one (closed), so connections that trickle a
/// request byte by byte (slowloris) never keep a real client out, and never push out a page or
/// a tool that has shown its token. Only when every slot is held by proven connections is a new
/// one refused. Every call is quick (a lock over at most `limit` entries).
public final class ConnectionSlots: Sendable {
    public let limit: Int
    public let unprovenLimit: Int
    private let state = Mutex(State())

    struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var accepted = 0
        var refused = 0
        var evicted = 0
    }

    struct Entry {
        var channel: any Channel
        var proven = false
        /// Order of acceptance: the oldest unproven one goes first.
        var order: Int
    }

    public init(limit: Int, unprovenLimit: Int) {
        self.limit = limit
        self.unprovenLimit = min(limit, unprovenLimit)
    }

    public var current: Int { state.withLock { $0.open.count } }
    public var refused: Int { state.withLock { $0.refused } }
    public var evicted: Int { state.withLock { $0.evicted } }

    /// Takes `channel` in (closing the connection it replaces, if any); false when every slot is
    /// held by a proven connection (counted as refused).
    public func admit(_ channel: any Channel) -> Bool {
        let (admitted, replaced) = state.withLock { state -> (Bool, (any Channel)?) in
            var replaced: Entry?
            let unproven = state.open.filter { !$0.value.proven }
            if state.open.count >= limit || unproven.count >= unprovenLimit {
                guard let oldest = unproven.min(by: { $0.value.order < $1.value.order }) else {
                    state.refused += 1
                    return (false, nil)
                }
                replaced = state.open.removeValue(forKey: oldest.key)
                state.evicted += 1
            }
            state.accepted += 1
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, order: state.accepted)
            return (true, replaced?.channel)
        }
        replaced?.close(promise: nil)
        return admitted
    }

    /// `channel` showed a credential: it keeps its slot.
    public func proven(_ channel: any Channel) {
        state.withLock { $0.open[ObjectIdentifier(channel)]?.proven = true }
    }

    public func closed(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every connection, and returns once they are closed: a server's stop, after its
    /// listening sockets closed (its loop, `NetworkLoop`, goes on serving the other doors).
    public func closeAll() async {
        let channels = state.withLock { $0.open.values.map(\.channel) }
        for channel in channels { channel.close(promise: nil) }
        // One that was closing already (its client went) is waited for all the same.
        for channel in channels { try? await channel.closeFuture.get() }
    }
}

/// Gives every new connection its slot (`ConnectionSlots`) before a byte is read: one that gets
/// none is closed at once, so a flood of connections costs nothing but the accepts. Sits in
/// each listening socket's pipeline, before NIO's acceptor.
public final class ConnectionLimit: ChannelInboundHandler, Sendable {
    public typealias InboundIn = any Channel
    public typealias InboundOut = any Channel

    private let slots: ConnectionSlots

    public init(slots: ConnectionSlots) {
        self.slots = slots
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        guard slots.admit(child) else {
            child.close(promise: nil)
            return
        }
        let slots = self.slots
        child.closeFuture.whenComplete { _ in slots.closed(child) }
        context.fireChannelRead(data)
    }
}
