// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// The hub, reached from any task: each use runs on the hub's event loop.
struct HubAccess: Sendable {
    private let hub: NIOLoopBound<EventHub>
    var eventLoop: any EventLoop { hub.eventLoop }

    init(_ hub: EventHub) {
        self.hub = NIOLoopBound(hub, eventLoop: hub.eventLoop)
    }

    func run<Result: Sendable>(_ body: @escaping @Sendable (EventHub) -> Result) async throws -> Result {
        let hub = self.hub
        return try await hub.eventLoop.submit { body(hub.value) }.get()
    }

    /// Runs `body` on the loop without waiting (publishing from a feed's task).
    func execute(_ body: @escaping @Sendable (EventHub) -> Void) {
        let hub = self.hub
        hub.eventLoop.execute { body(hub.value) }
    }

    /// The hub itself, for code already on its loop (a channel handler).
    func onLoop() -> EventHub { hub.value }
}
