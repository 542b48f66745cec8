// SPDX-License-Identifier: GPL-2.0-or-later
import Logging
import NIOCore
import NIOHTTP1

/// What the control server answers: the checks every request passes (host, origin, then the
/// page's one-time code or a credential), then the route of `table` (docs/control-api.md). The
/// HTTP plumbing is `ControlHTTPHandler`'s; the handlers are in ControlReading and ControlCommands.
struct ControlRoutes: Sendable {
    let access: ControlAccess
    let backend: any ControlBackend
    let hub: HubAccess
    let log: Logger
    let searches = SearchSlots()

    static let maxLimit = EventHub.recentLimit
    static let maxSearchText = 200
    /// `/api/comments?wait=` holds a request at most this many seconds (the connection's idle
    /// timeout does not close a connection while its request is answered).
    static let maxWait = 30

    /// `proven` runs as soon as the request's credential passed, before its handler (which may
    /// wait on the memory): its connection keeps its slot while the answer is prepared.
    func respond(to request: ControlRequest, proven: @Sendable () -> Void = {}) async -> ControlResponse {
        var response = await answer(request, proven: proven)
        response.headers += Self.commonHeaders(host: access.host(request.header("Host")))
        return response
    }

    /// Every answer: never cached, never framed, never sniffed, no referrer, and the page may
    /// only load its own script and style and talk to this server.
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
        let (underPage, path) = access.sessions.mount(of: request.path)
        guard path == "/api/events", let host = access.host(request.header("Host")),
              access.originAllowed(request.header("Origin"), host: host) else { return false }
        return credential(of: request, underPage: underPage, path: path) != .none
    }

    private func credential(of request: ControlRequest, underPage: Bool, path: String) -> ControlAccess.Credential {
        access.credential(authorization: request.header("Authorization"), cookie: request.header("Cookie"),
                          queryToken: request.query["token"], underPage: underPage,
                          allowsQuery: !underPage && path == "/api/events")
    }

    private func answer(_ request: ControlRequest, proven: @Sendable () -> Void) async -> ControlResponse {
        // A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) names itself here.
        guard let host = access.host(request.header("Host")) else {
            return .text(.forbidden, "This server answers only to \(access.allowedHosts.joined(separator: ", ")).\n")
        }
        guard access.originAllowed(request.header("Origin"), host: host) else {
            return .error(.forbidden, "requests from another site's page are refused")
        }
        let (underPage, path) = access.sessions.mount(of: request.path)
        if underPage, path.isEmpty {
            return ControlResponse(status: .permanentRedirect, headers: [("Location", access.sessions.path + "/")])
        }
        if underPage, path == "/", request.method == .GET, let code = request.query["code"] {
            return openPage(code: code)
        }
        // A route open to all (the hello) is answered without a credential, and proves nothing.
        if case .route(let route) = Self.route(request.method, path), route.open {
            return await route.handler(self, ControlCall(request: request, client: "anyone"))
        }
        let credential = credential(of: request, underPage: underPage, path: path)
        guard let client = credential.client else {
            var refused = ControlResponse.text(
                .unauthorized,
                "The control page needs to be opened from OBS: the source's \"Open control page\" button, or "
                    + "`commentbar control-url --open --port \(access.port)`. Programs send the token in an "
                    + "Authorization header (docs/control-api.md).\n")
            refused.headers.append(("WWW-Authenticate", "Bearer realm=\"commentbar\""))
            return refused
        }
        proven()
        var response: ControlResponse
        switch Self.route(request.method, path) {
        case .refused(let refused):
            response = refused
        case .route(let route):
            if route.takesJSON, request.header("Content-Type")?.lowercased().hasPrefix("application/json") != true {
                response = .error(.unsupportedMediaType, "send a JSON body with Content-Type: application/json")
            } else {
                response = await route.handler(self, ControlCall(request: request, client: client))
            }
        }
        response.authenticated = true
        return response
    }

    /// The page's one-time code, swapped for a session cookie; the browser is sent on to the
    /// page without it, so its address bar and history keep no code that works.
    private func openPage(code: String) -> ControlResponse {
        let again = "open the page again with OBS's \"Open control page\" button, or "
            + "`commentbar control-url --open --port \(access.port)`.\n"
        guard access.token.current() != nil else {
            return .text(.unauthorized, "The control token cannot be read (see the renderer's log): " + again)
        }
        let session: String
        switch access.sessions.use(code) {
        case .session(let new):
            session = new
            // The browser has read the link's file (`PageTrampoline`): it is of no more use.
            PageTrampoline.remove(code: code, folder: access.linkFileFolder)
        case .alreadyUsed:
            // Either the user's browser reopened a link (its history, a second tab), or someone who
            // got the link first used it: the user must hear of it.
            log.warning("""
                control page: a one-time link was presented again after it was already used (by the browser that \
                opened the page, or by someone who got the link first)
                """)
            return .text(.unauthorized, "This link was already used: a link opens the page once. If you did not "
                            + "open the page with it, someone else may have: " + again)
        case .expired:
            return .text(.unauthorized, "This link is more than \(access.sessions.lifetime.components.seconds) s old: " + again)
        case .unknown:
            return .text(.unauthorized, "This link is not one this server gave (it started again since?): " + again)
        }
        log.info("control page: a browser opened the page")
        var response = ControlResponse(status: .seeOther, headers: [("Location", access.sessions.path + "/"),
                                                                    ("Set-Cookie", access.sessions.setCookie(session))])
        response.authenticated = true
        return response
    }

    var unavailable: ControlResponse { .error(.serviceUnavailable, "the control server is stopping") }
}
