// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// The `/api/comments?wait=` requests held until there is news for them (docs/control-api.md), on
/// the hub's event loop: a held request is a promise, not a thread, and one timer (for the earliest
/// deadline) answers those whose wait ran out. At most `limit` are held, so they cannot pile up;
/// a request over it, or one made once the server is stopping, is not held (answered at once).
/// The HTTP handler says when a connection with a request being answered closes (`closed`).
final class NewsWaits {
    /// The dock holds one; a few tools beside it fit.
    static let limit = 8

    private struct Held {
        let connection: ObjectIdentifier
        let since: Int
        let deadline: NIODeadline
        let promise: EventLoopPromise<Void>
    }

    private let eventLoop: any EventLoop
    private var held: [Held] = []
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?
    /// The server stops: nothing more is held, so its stop never waits for a held request.
    private var stopping = false

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    var count: Int { held.count }

    /// A future that succeeds at news after `since` (`news(upTo:)`), at `deadline`, or when
    /// `connection` closes (the client went: its place is free again); nil when nothing more may
    /// be held, or the connection is closed already (answer at once).
    func hold(since: Int, until deadline: NIODeadline, connection: any Channel) -> EventLoopFuture<Void>? {
        eventLoop.assertInEventLoop()
        // A connection that closed before now was told of in `closed` already (same loop, in order).
        guard !stopping, held.count < Self.limit, connection.isActive else { return nil }
        let promise = eventLoop.makePromise(of: Void.self)
        held.append(Held(connection: ObjectIdentifier(connection), since: since, deadline: deadline, promise: promise))
        arm()
        return promise.futureResult
    }

    /// Every request held for news before `seq` is answered.
    func news(upTo seq: Int) {
        answer { $0.since < seq }
    }

    /// The connection closed: its held request is answered (to nobody) and its place is free.
    func closed(_ connection: ObjectIdentifier) {
        answer { $0.connection == connection }
    }

    /// Every held request is answered and none is held from now on (the server stops).
    func stop() {
        eventLoop.assertInEventLoop()
        stopping = true
        answer { _ in true }
    }

    /// The token changed: the credential every held request showed no longer holds, so none is
    /// given what comes next (its future fails with `Revoked`).
    func revoke() {
        eventLoop.assertInEventLoop()
        answer(with: .failure(Revoked())) { _ in true }
    }

    struct Revoked: Error {}

    private func answer(with result: Result<Void, any Error> = .success(()), where matches: (Held) -> Bool) {
        eventLoop.assertInEventLoop()
        guard held.contains(where: matches) else { return }
        let due = held.filter(matches)
        held.removeAll(where: matches)
        arm()
        for entry in due { entry.promise.completeWith(result) }
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
