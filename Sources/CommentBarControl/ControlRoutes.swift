// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Logging
import NIOCore
import NIOHTTP1

/// What the control server answers: the checks every request passes (host, origin, token),
/// the page, and the API (docs/control-api.md). The HTTP plumbing is `ControlHTTPHandler`'s.
struct ControlRoutes: Sendable {
    let access: ControlAccess
    let backend: any ControlBackend
    let hub: HubAccess
    let log: Logger

    static let maxLimit = EventHub.recentLimit
    static let maxSearchText = 200

    func respond(to request: ControlRequest) async -> ControlResponse {
        var response = await answer(request)
        response.headers += Self.commonHeaders(host: access.host(request.header("Host")))
        return response
    }

    /// Every answer: never cached, never framed, never sniffed, no referrer (a URL may hold the
    /// token), and the page may only load its own script and style and talk to this server.
    static func commonHeaders(host: String?) -> [(name: String, value: String)] {
        let socket = host.map { " ws://\($0)" } ?? ""
        return [
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("Content-Security-Policy",
             "default-src 'self'; connect-src 'self'\(socket); img-src 'self'; object-src 'none'; base-uri 'none'; "
                + "frame-ancestors 'none'; form-action 'none'"),
        ]
    }

    /// Whether a WebSocket request for the event API passes every check (else it is answered
    /// as HTTP, with the reason).
    func mayOpenEvents(_ head: HTTPRequestHead) -> Bool {
        let request = ControlRequest(head: head, body: ByteBuffer())
        guard request.path == "/api/events", let host = access.host(request.header("Host")),
              access.originAllowed(request.header("Origin"), host: host) else { return false }
        return access.credential(authorization: request.header("Authorization"), cookie: request.header("Cookie"),
                                 queryToken: request.query["token"]) != .none
    }

    private func answer(_ request: ControlRequest) async -> ControlResponse {
        // A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) names itself here.
        guard let host = access.host(request.header("Host")) else {
            return .text(.forbidden, "This server answers only to \(access.allowedHosts.joined(separator: ", ")).\n")
        }
        guard access.originAllowed(request.header("Origin"), host: host) else {
            return .error(.forbidden, "requests from another site's page are refused")
        }
        let credential = access.credential(authorization: request.header("Authorization"),
                                           cookie: request.header("Cookie"), queryToken: request.query["token"])
        guard credential != .none else {
            var refused = ControlResponse.text(
                .unauthorized,
                "The control page needs its token: open it with OBS's \"Open control page\" button, or the address "
                    + "`commentbar control-url --port \(access.port)` prints.\n")
            refused.headers.append(("WWW-Authenticate", "Bearer realm=\"commentbar\""))
            return refused
        }
        if credential == .query, request.method == .GET, !request.path.hasPrefix("/api/") {
            // The page keeps the token as a cookie, and its address bar and history lose it.
            return ControlResponse(status: .seeOther,
                                   headers: [("Location", request.pathWithoutToken), ("Set-Cookie", access.setCookie)])
        }
        switch (request.method, request.path) {
        case (.GET, "/"), (.GET, "/index.html"):
            return .text(.ok, ControlPage.html, type: "text/html; charset=utf-8")
        case (.GET, "/control.js"):
            return .text(.ok, ControlPage.script, type: "text/javascript; charset=utf-8")
        case (.GET, "/control.css"):
            return .text(.ok, ControlPage.style, type: "text/css; charset=utf-8")
        case (.GET, "/api/events"):
            return .error(.upgradeRequired, "this is a WebSocket: connect with a WebSocket client")
        case (.GET, "/api/comments"):
            return await comments(request)
        case (.GET, "/api/search"):
            return await search(request)
        case (.GET, "/api/state"):
            return await state()
        case (.POST, let path) where path.hasPrefix("/api/"):
            guard request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true else {
                return .error(.unsupportedMediaType, "send a JSON body with Content-Type: application/json")
            }
            return await command(path, body: Array(request.body.readableBytesView))
        case (_, "/"), (_, "/api/events"), (_, "/api/comments"), (_, "/api/search"), (_, "/api/state"):
            return .error(.methodNotAllowed, "use GET")
        case (_, let path) where path.hasPrefix("/api/"):
            return .error(request.method == .GET ? .methodNotAllowed : .notFound, "no such command")
        default:
            return .error(.notFound, "not found")
        }
    }

    struct CommentsBody: Codable {
        var version = ControlEvent.version
        var comments: [ControlEvent]
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

    private func comments(_ request: ControlRequest) async -> ControlResponse {
        guard let limit = number(request.query["limit"], default: 100, in: 0...Self.maxLimit),
              let since = number(request.query["since"], default: 0, in: 0...Int.max) else {
            return .error(.badRequest, "since and limit are whole numbers (limit at most \(Self.maxLimit))")
        }
        guard let events = try? await hub.run({ $0.comments(since: since, limit: limit) }) else { return unavailable }
        return .json(CommentsBody(comments: events))
    }

    private func search(_ request: ControlRequest) async -> ControlResponse {
        let text = (request.query["q"] ?? "").trimmingWhitespace(andNewlines: true)
        guard !text.isEmpty, text.unicodeScalars.count <= Self.maxSearchText,
              let limit = number(request.query["limit"], default: 100, in: 1...Self.maxLimit) else {
            return .error(.badRequest, "q is 1 to \(Self.maxSearchText) characters; limit 1 to \(Self.maxLimit)")
        }
        if let found = await backend.search(text, limit: limit) { return .json(SearchBody(comments: found)) }
        guard let found = try? await hub.run({ $0.search(text, limit: limit) }) else { return unavailable }
        return .json(SearchBody(comments: found))
    }

    private func state() async -> ControlResponse {
        guard let body = try? await hub.run({ StateBody(seq: $0.seq, pin: $0.pin, streams: $0.streams) }) else { return unavailable }
        return .json(body)
    }

    struct PinRequest: Codable {
        var id: String?
    }

    struct PauseRequest: Codable {
        var paused: Bool?
    }

    struct Done: Codable {
        var ok = true
        var id: String?
        var until: Double?
        var paused: Bool?
    }

    private func command(_ path: String, body: [UInt8]) async -> ControlResponse {
        switch path {
        case "/api/pin":
            guard let request: PinRequest = decode(body), let id = request.id, !id.isEmpty else {
                return .error(.badRequest, "send {\"id\": …}: the id of a comment the event API gave")
            }
            guard let line = try? await hub.run({ $0.line(id: id) }) else {
                return .error(.notFound, "no comment \(id) among the newest \(EventHub.recentLimit)")
            }
            let until = backend.pin(line)
            log.info("control: pinned \(id)")
            return .json(Done(id: id, until: until))
        case "/api/unpin":
            guard let request = decode(body, empty: PinRequest()) else {
                return .error(.badRequest, "send {} or {\"id\": …}")
            }
            guard backend.unpin(id: request.id) else { return .error(.notFound, "that comment is not pinned") }
            log.info("control: unpinned")
            return .json(Done(id: request.id))
        case "/api/viewer":
            return await viewer(body)
        case "/api/speech/skip":
            backend.skipSpeech()
            hub.execute { $0.publish(.speech(.init(action: "skip"))) }
            return .json(Done())
        case "/api/speech/pause":
            guard let request = decode(body, empty: PauseRequest()) else {
                return .error(.badRequest, "send {\"paused\": true|false}, or {} to toggle")
            }
            let paused = backend.pauseSpeech(request.paused)
            hub.execute { $0.publish(.speech(.init(action: paused ? "pause" : "resume"))) }
            return .json(Done(paused: paused))
        default:
            return .error(.notFound, "no such command")
        }
    }

    private func viewer(_ body: [UInt8]) async -> ControlResponse {
        guard let choice: ViewerChoice = decode(body) else {
            return .error(.badRequest, "send {\"platform\", \"channel\", \"user\"} and any of nickname, colour, hidden")
        }
        if let problem = choice.problem { return .error(.badRequest, problem) }
        log.info("control: viewer \(choice.platform)/\(choice.channel)/\(choice.user):\(Self.describe(choice))")
        switch await backend.setViewer(choice) {
        case .saved:
            return .json(Done())
        case .unavailable(let why):
            return .error(.serviceUnavailable, why)
        }
    }

    /// What a viewer choice changes, for the log.
    static func describe(_ choice: ViewerChoice) -> String {
        var parts: [String] = []
        if let nickname = choice.nickname { parts.append(" nickname \"\(nickname)\"") }
        if let colour = choice.colour { parts.append(" colour \(colour.isEmpty ? "(none)" : colour)") }
        if let hidden = choice.hidden { parts.append(hidden ? " hidden" : " shown") }
        return parts.joined(separator: ",")
    }

    private var unavailable: ControlResponse { .error(.serviceUnavailable, "the control server is stopping") }

    /// The body as `Value`; an empty body is `empty` (nil: refused).
    private func decode<Value: Decodable>(_ body: [UInt8], empty: Value? = nil) -> Value? {
        if body.isEmpty { return empty }
        return try? JSONDecoder().decode(Value.self, from: Data(body))
    }

    private func number(_ text: String?, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let text else { return fallback }
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
