// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import NIOHTTP1

/// The routes that read: the newest comments, search, the state, and the page's one-time link.
extension ControlRoutes {
    struct CommentsBody: Codable {
        var version = ControlEvent.version
        /// The newest event's number when answered: the next `since` (events that are no news
        /// to this reader, such as speech, are passed over with it).
        var seq: Int
        /// The newest event that changed what `/api/state` gives: above the `seq` a client read
        /// `/api/state` at, it reads it again.
        var stateSeq: Int
        /// The newest event that changed the poll, the queue or the giveaway: above the `seq` a
        /// client read them at, it reads them again.
        var boardsSeq: Int
        var comments: [ControlEvent]
        /// The `delete`, `ban` and `clear` events after `since` (as `/api/events` sends them), so
        /// a polling client drops those rows too; `removedComplete` false: some were no longer
        /// kept, and the client should read everything again (`since=0`).
        var removed: [ControlEvent]
        var removedComplete: Bool

        enum CodingKeys: String, CodingKey {
            case version, seq, comments, removed
            case stateSeq = "state_seq"
            case boardsSeq = "boards_seq"
            case removedComplete = "removed_complete"
        }
    }

    struct SearchBody: Codable {
        var version = ControlEvent.version
        var comments: [ControlEvent.Comment]
    }

    struct StateBody: Codable {
        var version = ControlEvent.version
        /// The newest event's number: `/api/comments?since=` this gives what comes next.
        var seq: Int
        var pin: ControlEvent.Pin?
        /// Each stream's last state and viewer count.
        var streams: [EventHub.StreamState]
    }

    struct PageLinkBody: Codable {
        /// The page's address with a one-time code.
        var url: String
        /// Seconds it works for (once).
        var expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case url
            case expiresIn = "expires_in"
        }
    }

    /// `wait=S`: with nothing new after `since`, the answer waits up to S seconds for news
    /// (`EventHub.holdForNews`), so a follower asks once per S when nothing happens.
    func comments(_ call: ControlCall) async -> ControlResponse {
        let query = call.request.query
        guard let limit = number(query["limit"], default: 100, in: 0...Self.maxLimit),
              let since = number(query["since"], default: 0, in: 0...Int.max),
              let wait = number(query["wait"], default: 0, in: 0...Self.maxWait) else {
            return .error(.badRequest, "since, limit and wait are whole numbers (limit at most \(Self.maxLimit), "
                            + "wait at most \(Self.maxWait))")
        }
        if wait > 0, let connection = call.request.connection,
           let held = try? await hub.run({ $0.holdForNews(since: since, seconds: wait, connection: connection) }) {
            do {
                try await held.get()
            } catch {
                return .error(.unauthorized, "the control token changed while this request waited: ask with the new one")
            }
        }
        guard let body = try? await hub.run({ hub -> CommentsBody in
            let removals = hub.removals(since: since)
            return CommentsBody(seq: hub.seq, stateSeq: hub.stateSeq, boardsSeq: hub.boardsSeq, comments: hub.comments(since: since, limit: limit),
                                removed: removals.events, removedComplete: removals.complete)
        }) else { return unavailable }
        return .json(body)
    }

    /// One search at a time per client (the page's Search button waits for it; a second one
    /// while the first runs is 429): a client cannot pile up searches of a large chat log.
    func search(_ call: ControlCall) async -> ControlResponse {
        let text = (call.request.query["q"] ?? "").trimmingWhitespace(andNewlines: true)
        guard !text.isEmpty, text.unicodeScalars.count <= Self.maxSearchText,
              let limit = number(call.request.query["limit"], default: 100, in: 1...Self.maxLimit) else {
            return .error(.badRequest, "q is 1 to \(Self.maxSearchText) characters; limit 1 to \(Self.maxLimit)")
        }
        guard searches.begin(call.client) else {
            var busy = ControlResponse.error(.tooManyRequests, "a search of yours is still running: wait for its answer")
            busy.headers.append(("Retry-After", "1"))
            return busy
        }
        defer { searches.end(call.client) }
        if let found = await backend.search(text, limit: limit) { return .json(SearchBody(comments: found)) }
        guard let found = try? await hub.run({ $0.search(text, limit: limit) }) else { return unavailable }
        return .json(SearchBody(comments: found))
    }

    func state() async -> ControlResponse {
        guard let body = try? await hub.run({ StateBody(seq: $0.seq, pin: $0.pin, streams: $0.streams) }) else { return unavailable }
        return .json(body)
    }

    /// `POST /api/page-link`: what `commentbar control-url` asks for with the token.
    func pageLink() -> ControlResponse {
        .json(PageLinkBody(url: pageURL(), expiresIn: Int(access.sessions.lifetime.components.seconds)))
    }

    /// The page's address with a new one-time code.
    func pageURL() -> String {
        "http://127.0.0.1:\(access.port)\(access.sessions.path)/?code=\(access.sessions.issueCode())"
    }

    private func number(_ text: String?, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let text else { return fallback }
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
