// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import NIOCore

/// Why an action did not run, worded for the bar's status line and the log.
struct ActionFailure: Error, Equatable, CustomStringConvertible, Sendable {
    var description: String
    /// The target answered, and said no (a wrong path, a refused password, an error status): the
    /// action is not tried again; else the target could not be reached and it is, after the backoff.
    var answered = false
}

/// A way to the target (HTTP, WebSocket, UDP): `send` delivers one action or throws within
/// `ActionLinks.deadline`; after a failure the sender calls `reset` and waits its backoff.
protocol ActionLink: Sendable {
    func send(_ action: DoAction) async throws(ActionFailure)
    /// Drops any open connection (the next `send` opens a new one).
    func reset() async
    /// Another action waits behind the one being sent (or the sender stops): an answer the link
    /// holds back to read with the next action's hand-over is read now (`HTTPActionLink`).
    /// Returns at once, from any thread.
    func othersWaiting()
    /// The action being sent was written to the target, which has not answered yet (its answer
    /// may be held back: `othersWaiting`).
    var awaitingAnswer: Bool { get }
}

extension ActionLink {
    func othersWaiting() {}
    var awaitingAnswer: Bool { false }
}

/// Where `ActionsHook` gets the link to each target: `ActionLinks` (the real ones), or a test's
/// double, so the sender (backoff, hand-over, drops) is tried without a network.
/// `loop` is where the sender runs: a link connects on it, so its answers need no other thread.
protocol ActionLinkMaker: Sendable {
    func link(to target: ActionTarget, password: String?, on loop: any EventLoop) -> any ActionLink
}

struct ActionLinks: ActionLinkMaker {
    /// The longest one action may take, a connection included: a target that accepts and never
    /// answers costs this, then the bar's status says so and the backoff begins.
    static let deadline = Duration.seconds(5)

    func link(to target: ActionTarget, password: String?, on loop: any EventLoop) -> any ActionLink {
        switch target.transport {
        case .http(let path): return HTTPActionLink(target: target, path: path, loop: loop)
        case .webSocket(let path): return WebSocketActionLink(target: target, path: path, password: password)
        case .udp: return UDPActionLink(target: target, loop: loop)
        }
    }

    /// `work` within `limit`, or a failure saying it took too long.
    static func bounded<T: Sendable>(_ what: String, within limit: Duration = deadline,
                                     _ work: @escaping @Sendable () async -> Result<T, ActionFailure>)
        async throws(ActionFailure) -> T {
        guard let outcome = await TimeLimit.run(limit, work) else {
            throw ActionFailure(description: "\(what): no answer within \(limit.components.seconds) s")
        }
        return try outcome.get()
    }
}
