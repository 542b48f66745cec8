// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Logging
import Synchronization

/// A server on loopback as `LoopbackService` runs it.
public protocol LoopbackServer: AnyObject, Sendable {
    /// The port it listens on (the one asked for, or the one the system chose for 0).
    var port: Int { get }
    /// Closes its sockets and timers, and ends the threads of its own (a server on `NetworkLoop` has
    /// no event-loop thread of its own).
    func stop() async
}

/// "A server wanted on a port", written once for the control server and the OneComme server.
/// The settings name a port or none (`configure`); the server starts, moves or stops, each change
/// after the one before; a start that fails (the port is taken) is the bar's status line and one
/// log line (`problems`), and is tried again with `Backoff` while the settings still name that
/// port. Every call returns at once. What is particular to a server is in its `Events`.
public final class LoopbackService<Server: LoopbackServer>: Sendable {
    /// What is particular to one server: how it starts, and what its owner does when it came up,
    /// went, or could not start.
    public struct Events: Sendable {
        /// Starts a server on `port`; what it throws is the status line (`"\(error)"`).
        public var start: @Sendable (_ port: Int) async throws -> Server
        /// The server serves `port` (the settings still named it when it came up).
        public var started: @Sendable (_ server: Server, _ port: Int) -> Void = { _, _ in }
        /// The server for `port` was closed (the settings moved or turned it off).
        public var stopped: @Sendable (_ port: Int) -> Void = { _ in }
        /// A start of `port` failed; it is tried again.
        public var failed: @Sendable (_ port: Int) -> Void = { _ in }
        /// `port` failed to start and the settings no longer name it.
        public var abandoned: @Sendable (_ port: Int) -> Void = { _ in }

        public init(start: @escaping @Sendable (_ port: Int) async throws -> Server) {
            self.start = start
        }
    }

    /// What the server is wrong about now (nil: it works, or is off).
    public let problems: ProblemReporter
    private let name: String
    private let log: Logger
    private let events: Events
    private let state: Mutex<State>

    private struct State {
        /// What the settings ask for (nil: off; 0: any free port, for tests).
        var wanted: Int?
        var server: Server?
        /// The port the running server was started for (its own, unless that was 0).
        var serving: Int?
        /// The port whose last start failed (nil: none).
        var failing: Int?
        /// The last start or stop, which the next one waits for.
        var lastChange: Task<Void, Never>?
        /// The next try of a start that failed, while it waits.
        var retry: Task<Void, Never>?
        var backoff: Backoff
    }

    /// `name`: how the log and the status line call the server ("control page"); `retry`: the
    /// waits between tries of a start that failed; `changed`: the status line changed.
    public init(name: String, log: Logger, retry: Backoff = Backoff(base: .seconds(1), cap: .seconds(30)),
                events: Events, changed: @escaping @Sendable () -> Void = {}) {
        self.name = name
        self.log = log
        self.events = events
        state = Mutex(State(backoff: retry))
        problems = ProblemReporter(log: log, level: .error, changed: changed)
    }

    /// The running server (nil: off, or not started yet).
    public var server: Server? { state.withLock { $0.server } }

    /// The running server's port (nil: off, or not started yet).
    public var port: Int? { server?.port }

    /// The settings: a port (0: any free one), or nil: off.
    public func configure(port wanted: Int?) {
        let changed = state.withLock { state -> Bool in
            guard state.wanted != wanted else { return false }
            state.wanted = wanted
            state.retry?.cancel()
            state.retry = nil
            state.backoff.reset()
            enqueue(in: &state)
            return true
        }
        // New settings: an old fault is news again.
        if changed { problems.forgetLogged() }
    }

    /// Waits for the last start or stop to finish (tests; the end of `serve`).
    public func settle() async {
        await state.withLock { $0.lastChange }?.value
    }

    /// Turns the server off and waits until it is gone.
    public func shutdown() async {
        configure(port: nil)
        await settle()
    }

    private func enqueue(in state: inout State) {
        let previous = state.lastChange
        state.lastChange = Task { [self] in
            await previous?.value
            await apply()
        }
    }

    /// Brings the server to what the settings say now (a try of a port they no longer name does nothing).
    private func apply() async {
        let (wanted, running, serving) = state.withLock { ($0.wanted, $0.server, $0.serving) }
        if running != nil, serving == wanted { return }
        if let running {
            await running.stop()
            state.withLock {
                $0.server = nil
                $0.serving = nil
            }
            log.info("\(name): off (port \(running.port) closed)")
            events.stopped(serving ?? running.port)
        }
        if let failing = state.withLock({ $0.failing }), failing != wanted {
            state.withLock { $0.failing = nil }
            events.abandoned(failing)
        }
        guard let port = wanted else {
            problems.report(nil)
            return
        }
        let server: Server
        do {
            server = try await events.start(port)
        } catch {
            failed("\(error)", port: port)
            return
        }
        let stillWanted = state.withLock { state -> Bool in
            guard state.wanted == port else { return false }
            state.server = server
            state.serving = port
            state.failing = nil
            state.backoff.reset()
            return true
        }
        guard stillWanted else { return await server.stop() }
        events.started(server, port)
        problems.forgetLogged()
        problems.report(nil)
    }

    /// One log line per distinct problem (a retry that fails alike is quiet), the status line,
    /// and the next try after the backoff's wait, if the port is still wanted.
    private func failed(_ problem: String, port: Int) {
        if problems.report(problem) { log.info("\(name): trying again until it works or the settings change") }
        let stillWanted = state.withLock { waiting -> Bool in
            guard waiting.wanted == port else { return false }
            waiting.failing = port
            let delay = waiting.backoff.nextDelay()
            waiting.retry = Task { [self] in
                do { try await Task.sleep(for: delay) } catch { return }
                state.withLock { state in
                    guard state.wanted == port, state.server == nil, !Task.isCancelled else { return }
                    state.retry = nil
                    enqueue(in: &state)
                }
            }
            return true
        }
        if stillWanted { events.failed(port) }
    }
}
