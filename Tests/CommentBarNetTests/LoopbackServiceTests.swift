// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Logging
import Synchronization
import Testing
@testable import CommentBarNet

/// The wanted port's machine, in process: a double of a server whose ports are "taken" as the
/// test says, and the events the service tells its owner, in order.
@Suite struct LoopbackServiceTests {
    final class FakeServer: LoopbackServer {
        let port: Int
        let stopped = Mutex(false)
        init(port: Int) { self.port = port }
        func stop() async { stopped.withLock { $0 = true } }
    }

    struct Taken: Error, CustomStringConvertible {
        let port: Int
        var description: String { "port \(port) is in use" }
    }

    /// The ports taken now, the starts tried, and what the owner heard.
    final class World: Sendable {
        let taken = Mutex<Set<Int>>([])
        let tries = Mutex(0)
        let heard = Mutex<[String]>([])

        func events() -> LoopbackService<FakeServer>.Events {
            var events = LoopbackService<FakeServer>.Events { [self] port in
                tries.withLock { $0 += 1 }
                if taken.withLock({ $0.contains(port) }) { throw Taken(port: port) }
                return FakeServer(port: port)
            }
            events.started = { [self] _, port in heard.withLock { $0.append("started \(port)") } }
            events.stopped = { [self] port in heard.withLock { $0.append("stopped \(port)") } }
            events.failed = { [self] port in heard.withLock { $0.append("failed \(port)") } }
            events.abandoned = { [self] port in heard.withLock { $0.append("abandoned \(port)") } }
            return events
        }
    }

    static let quick = Backoff(base: .milliseconds(20), cap: .milliseconds(40))

    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func itStartsMovesAndStopsAsTheSettingsSay() async {
        let world = World()
        let service = LoopbackService(name: "test", log: Logger(label: "test"), events: world.events())
        service.configure(port: 4001)
        await service.settle()
        let first = service.server
        #expect(service.port == 4001)
        service.configure(port: 4001)
        await service.settle()
        #expect(service.server === first, "the same settings again change nothing")
        service.configure(port: 4002)
        await service.settle()
        #expect(service.port == 4002)
        #expect(first?.stopped.withLock { $0 } == true)
        await service.shutdown()
        #expect(service.server == nil)
        #expect(world.heard.withLock { $0 } == ["started 4001", "stopped 4001", "started 4002", "stopped 4002"])
        #expect(service.problems.current == nil)
    }

    @Test func aTakenPortIsTheStatusLineAndIsTriedAgainUntilFree() async {
        let world = World()
        world.taken.withLock { $0 = [4003] }
        let changes = Mutex(0)
        let service = LoopbackService(name: "test", log: Logger(label: "test"), retry: Self.quick, events: world.events(),
                                      changed: { changes.withLock { $0 += 1 } })
        service.configure(port: 4003)
        #expect(await Self.eventually { world.tries.withLock { $0 } >= 3 })
        #expect(service.problems.current == "port 4003 is in use")
        #expect(service.server == nil)
        #expect(changes.withLock { $0 } == 1, "tried again, the same problem: one change of the status line")
        world.taken.withLock { $0 = [] }
        #expect(await Self.eventually { service.port == 4003 })
        #expect(await Self.eventually { service.problems.current == nil })
        let heard = world.heard.withLock { $0 }
        #expect(heard.last == "started 4003")
        #expect(heard.dropLast().allSatisfy { $0 == "failed 4003" })
        await service.shutdown()
    }

    @Test func aPortNoLongerWantedIsAbandonedAndNotTriedAgain() async {
        let world = World()
        world.taken.withLock { $0 = [4004] }
        let service = LoopbackService(name: "test", log: Logger(label: "test"), retry: Self.quick, events: world.events())
        service.configure(port: 4004)
        #expect(await Self.eventually { service.problems.current != nil })
        service.configure(port: nil)
        await service.settle()
        #expect(service.problems.current == nil)
        let tries = world.tries.withLock { $0 }
        try? await Task.sleep(for: .milliseconds(200))
        #expect(world.tries.withLock { $0 } == tries, "no try after the settings turned it off")
        #expect(world.heard.withLock { $0 }.last == "abandoned 4004")
    }
}
