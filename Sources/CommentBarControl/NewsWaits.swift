// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// The `/api/comments?wait=` requests held until there is news for them (docs/control-api.md), on
/// the hub's event loop: a held request is a promise, not a thread, and one timer (for the earliest
/// deadline) answers those whose wait ran out. At most `limit` are held, so they cannot pile up;
/// a request over it, or one made once the server is stopping, is not held (answered at once).
final class NewsWaits {
    /// The dock holds one; a few tools beside it fit.
    static let limit = 8

    private struct Held {
        let id: Int
        let since: Int
        let deadline: NIODeadline
        let promise: EventLoopPromise<Void>
    }

    private let eventLoop: any EventLoop
    private var held: [Held] = []
    private var nextID = 0
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?
    /// The server stops: nothing more is held, so its stop never waits for a held request.
    private var stopping = false

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    var count: Int { held.count }

    /// A future that succeeds at news after `since` (`news(upTo:)`), at `deadline`, or when
    /// `closed` completes (the client went: its place is free again); nil when nothing more may be
    /// held (answer at once).
    func hold(since: Int, until deadline: NIODeadline, closed: EventLoopFuture<Void>?) -> EventLoopFuture<Void>? {
        eventLoop.assertInEventLoop()
        guard !stopping, held.count < Self.limit else { return nil }
        nextID += 1
        let id = nextID
        let promise = eventLoop.makePromise(of: Void.self)
        held.append(Held(id: id, since: since, deadline: deadline, promise: promise))
        closed?.hop(to: eventLoop).assumeIsolated().whenComplete { [weak self] _ in
            self?.answer { $0.id == id }
        }
        arm()
        return promise.futureResult
    }

    /// Every request held for news before `seq` is answered.
    func news(upTo seq: Int) {
        answer { $0.since < seq }
    }

    /// Every held request is answered and none is held from now on (the server stops).
    func stop() {
        eventLoop.assertInEventLoop()
        stopping = true
        answer { _ in true }
    }

    private func answer(where matches: (Held) -> Bool) {
        eventLoop.assertInEventLoop()
        guard held.contains(where: matches) else { return }
        let due = held.filter(matches)
        held.removeAll(where: matches)
        arm()
        for entry in due { entry.promise.succeed(()) }
    }

    /// The one timer is set for the earliest deadline held (none when nothing is held).
    private func arm() {
        let earliest = held.map(\.deadline).min()
        guard earliest != timerDeadline else { return }
        timer?.cancel()
        timer = nil
        timerDeadline = earliest
        guard let earliest else { return }
        timer = eventLoop.assumeIsolated().scheduleTask(deadline: earliest) { [weak self] () -> Void in
            self?.expire()
        }
    }

    private func expire() {
        timerDeadline = nil
        timer = nil
        let now = NIODeadline.now()
        answer { $0.deadline <= now }
        arm()
    }
}
