// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import Synchronization

/// An in-process `WebFetching` for tests, as NIOEmbedded's channel is for swift-nio's: canned
/// answers by URL, every request recorded as it was made, and answers that fail, never come or
/// drip. Nothing reaches a network, and failures read as the real transport's (`WebFailure`'s
/// wording), so a platform's tests see the messages the bar would show.
package final class EmbeddedWeb: WebFetching {
    package enum Answer: Sendable {
        /// 200 with this body (over the request's byte cap: refused as the real transport does).
        case ok([UInt8], cacheControl: String? = nil)
        /// An answer with another status (404, 429, 500…).
        case status(Int)
        /// The request fails so.
        case failure(WebFailure)
        /// The request's deadline passed: fails "timed out" at once (the double does not wait).
        case timesOut
        /// No answer ever: waits until the calling task is cancelled.
        case stall
        /// 200 with these chunks, one every `every` (a stream yields them as they come; `fetch`
        /// gives them joined), then `then` when given (a cut connection, a deadline).
        case chunks([[UInt8]], every: Duration = .zero, then: WebFailure? = nil)

        /// 200 with this text.
        package static func text(_ text: String) -> Answer { .ok(Array(text.utf8)) }
    }

    private struct State {
        var exact: [String: Answer] = [:]
        var prefixes: [(prefix: String, answer: Answer)] = []
        var requests: [WebRequest] = []
    }

    private let state = Mutex(State())

    /// Answers by exact URL.
    package init(_ answers: [String: Answer] = [:]) {
        state.withLock { $0.exact = answers }
    }

    /// Answers `url` (exactly) so from now on.
    package func answer(_ url: String, with answer: Answer) {
        state.withLock { $0.exact[url] = answer }
    }

    /// Answers every URL that starts with `prefix` (and has no exact answer) so; the longest prefix wins.
    package func answer(startingWith prefix: String, with answer: Answer) {
        state.withLock { $0.prefixes.append((prefix, answer)) }
    }

    /// Every request made, in order.
    package var requests: [WebRequest] { state.withLock { $0.requests } }

    /// The requests made to URLs that start with `prefix`.
    package func requests(startingWith prefix: String) -> [WebRequest] {
        requests.filter { $0.url.hasPrefix(prefix) }
    }

    package func fetch(_ request: WebRequest) async throws(WebFailure) -> WebResponse {
        switch try answer(for: request) {
        case .ok(let body, let cacheControl):
            guard body.count <= request.limits.maxBytes else {
                throw .tooLarge(request.url, maxBytes: request.limits.maxBytes, length: body.count)
            }
            return WebResponse(body: body, cacheControl: cacheControl)
        case .status(let code):
            throw .status(code, url: request.url)
        case .failure(let failure):
            throw failure
        case .timesOut:
            throw .timedOut(request.url)
        case .stall:
            try await Self.stall(request)
        case .chunks(let chunks, let every, let then):
            var body: [UInt8] = []
            for chunk in chunks {
                try await Self.wait(every, request)
                body += chunk
                guard body.count <= request.limits.maxBytes else { throw .tooLarge(request.url, maxBytes: request.limits.maxBytes) }
            }
            if let then { throw then }
            return WebResponse(body: body)
        }
    }

    package func open(_ request: WebRequest) async throws(WebFailure) -> WebBodyStream {
        let chunks: [[UInt8]], every: Duration, then: WebFailure?
        switch try answer(for: request) {
        case .ok(let body, _): (chunks, every, then) = ([body], .zero, nil)
        case .status(let code): throw .status(code, url: request.url)
        case .failure(let failure): throw failure
        case .timesOut: throw .timedOut(request.url)
        case .stall: try await Self.stall(request)
        case .chunks(let parts, let interval, let end): (chunks, every, then) = (parts, interval, end)
        }
        return WebBodyStream {
            var index = 0
            return WebBodyStream.AsyncIterator { () async throws(WebFailure) -> [UInt8]? in
                guard index < chunks.count else {
                    if let then { throw then }
                    return nil
                }
                try await Self.wait(every, request)
                defer { index += 1 }
                return chunks[index]
            }
        }
    }

    private func answer(for request: WebRequest) throws(WebFailure) -> Answer {
        let answer: Answer? = state.withLock { state in
            state.requests.append(request)
            if let exact = state.exact[request.url] { return exact }
            return state.prefixes.filter { request.url.hasPrefix($0.prefix) }
                .max { $0.prefix.count < $1.prefix.count }?.answer
        }
        guard request.url.lowercased().hasPrefix("https://") else { throw .notHTTPS(request.url) }
        guard let answer else { throw WebFailure("\(WebFailure.shown(request.url)): no answer (EmbeddedWeb)") }
        return answer
    }

    private static func stall(_ request: WebRequest) async throws(WebFailure) -> Never {
        while true {
            do { try await Task.sleep(for: .seconds(3600)) } catch { throw .cancelled(request.url) }
        }
    }

    private static func wait(_ interval: Duration, _ request: WebRequest) async throws(WebFailure) {
        guard interval > .zero else { return }
        do { try await Task.sleep(for: interval) } catch { throw .cancelled(request.url) }
    }
}
