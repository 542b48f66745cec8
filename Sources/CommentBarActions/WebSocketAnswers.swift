// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Synchronization

/// What Streamer.bot's WebSocket server says on one connection, as the sender waits for it: its
/// `Hello` (with `authentication` when it has a password) and each request's answer
/// (`{"id":…,"status":"ok"|"error"}`), each awaited with a deadline and never polled.
final class WebSocketAnswers: Sendable {
    struct Hello: Sendable, Equatable {
        var salt: String?
        var challenge: String?
        var asksPassword: Bool { salt != nil && challenge != nil }
    }

    struct Answer: Sendable, Equatable {
        var ok: Bool
        var error: String?
    }

    private let state = Mutex(State())

    private struct State {
        var hello: Hello?
        var helloWaiter: CheckedContinuation<Hello?, Never>?
        var waiting: [String: CheckedContinuation<Answer?, Never>] = [:]
        /// Answers that came before their waiter (bounded: a chatty server cannot grow it).
        var early: [String: Answer] = [:]
        var closed = false
    }

    /// The JSON keys read; anything else (events the connection did not subscribe to) is ignored.
    private struct Message: Decodable {
        struct Authentication: Decodable {
            var salt: String?
            var challenge: String?
        }

        var request: String?
        var id: String?
        var status: String?
        var error: String?
        var authentication: Authentication?
    }

    /// One text message from the server.
    func receive(_ bytes: [UInt8]) {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(bytes)) else { return }
        if message.request == "Hello" {
            let hello = Hello(salt: message.authentication?.salt, challenge: message.authentication?.challenge)
            let waiter = state.withLock { state -> CheckedContinuation<Hello?, Never>? in
                state.hello = hello
                defer { state.helloWaiter = nil }
                return state.helloWaiter
            }
            waiter?.resume(returning: hello)
            return
        }
        guard let id = message.id, let status = message.status else { return }
        let answer = Answer(ok: status == "ok", error: message.error)
        let waiter = state.withLock { state -> CheckedContinuation<Answer?, Never>? in
            if let waiter = state.waiting.removeValue(forKey: id) { return waiter }
            if state.early.count < 64 { state.early[id] = answer }
            return nil
        }
        waiter?.resume(returning: answer)
    }

    /// The connection ended: every wait ends with nothing.
    func close() {
        let (hello, waiting) = state.withLock { state in
            state.closed = true
            defer {
                state.helloWaiter = nil
                state.waiting = [:]
            }
            return (state.helloWaiter, Array(state.waiting.values))
        }
        hello?.resume(returning: nil)
        for waiter in waiting { waiter.resume(returning: nil) }
    }

    /// The server's Hello, waiting at most `limit`; nil: none came (a server that sends none).
    func hello(within limit: Duration) async -> Hello? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Hello?? in
                if let hello = state.hello { return .some(hello) }
                if state.closed { return .some(nil) }
                state.helloWaiter = continuation
                return nil
            }
            if let now { return continuation.resume(returning: now) }
            // Registered first, then timed: the expiry finds the waiter, or an answer took it.
            Task {
                try? await Task.sleep(for: limit)
                let waiter = self.state.withLock { state -> CheckedContinuation<Hello?, Never>? in
                    defer { state.helloWaiter = nil }
                    return state.helloWaiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }

    /// The answer to request `id`, waiting at most `limit`; nil: none came, or the connection ended.
    func answer(to id: String, within limit: Duration) async -> Answer? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Answer?? in
                if let early = state.early.removeValue(forKey: id) { return .some(early) }
                if state.closed { return .some(nil) }
                state.waiting[id] = continuation
                return nil
            }
            if let now { return continuation.resume(returning: now) }
            Task {
                try? await Task.sleep(for: limit)
                let waiter = self.state.withLock { $0.waiting.removeValue(forKey: id) }
                waiter?.resume(returning: nil)
            }
        }
    }
}
