// SPDX-License-Identifier: GPL-2.0-or-later

import CommentBarNet

/// Who may use the control server: requests that name it on loopback and, from a browser, come
/// from its own page (`LoopbackNames`, the OneComme server's rule too), and prove they may (the
/// token in a bearer header, or the page's session cookie under the page's path).
/// No CORS header is ever sent, so another site's page can neither read an answer nor send JSON.
struct ControlAccess: Sendable {
    let port: Int
    let token: TokenWatch
    let sessions: PageSessions
    /// Where the page's link files are (`PageTrampoline`; nil: its default folder).
    var linkFileFolder: String? = nil

    var names: LoopbackNames { LoopbackNames(port: port) }

    /// The host names a request may give: this server's own loopback addresses, with its port.
    var allowedHosts: [String] { names.hosts }

    /// The `Host` header as allowed (lower case), or nil: refused.
    func host(_ header: String?) -> String? { names.host(header) }

    /// A browser's `Origin` must be the page's own; a program that sends none (websocat, a
    /// script) is judged by its token alone.
    func originAllowed(_ origin: String?, host: String) -> Bool { names.originAllowed(origin, host: host) }

    /// How a request proved it may use the server.
    enum Credential: Sendable, Equatable {
        case bearer
        /// The page's cookie (its value), under the page's path only.
        case session(String)
        /// `?token=` on the root's `/api/events`, for WebSocket clients that cannot set a header.
        case query
        case none

        /// Who is asking, for the limits kept per client (one search at a time): every holder of
        /// the token is one client, each page session another.
        var client: String? {
            switch self {
            case .bearer, .query: return "token"
            case .session(let id): return "session " + id
            case .none: return nil
            }
        }
    }

    /// Which of the request's proofs holds (a wrong one counts as none). Under the page's path a
    /// session cookie counts; at the root only the token does (the cookie is never sent there).
    /// Every cookie of the session's name is tried: a page on another port of 127.0.0.1 can set
    /// one with a longer path, which the browser sends first (cookie tossing).
    func credential(authorization: String?, cookie: String?, queryToken: String?, underPage: Bool,
                    allowsQuery: Bool = false) -> Credential {
        let token = self.token.current()
        if let token, let authorization, authorization.hasPrefix("Bearer "),
           ControlToken.matches(authorization.dropFirst("Bearer ".count), token) {
            return .bearer
        }
        if underPage, let cookie, token != nil {
            for value in Self.cookieValues(cookie, name: PageSessions.cookieName) where sessions.isSession(value) {
                return .session(String(value))
            }
        }
        if allowsQuery, let token, let queryToken, ControlToken.matches(queryToken, token) { return .query }
        return .none
    }

    /// Every value of the cookie `name` in a `Cookie` header (`a=1; b=2; a=3`), in order.
    static func cookieValues(_ header: String, name: String) -> [Substring] {
        header.split(separator: ";").compactMap { part in
            let pair = part.drop(while: { $0 == " " })
            return pair.hasPrefix(name + "=") ? pair.dropFirst(name.count + 1) : nil
        }
    }
}
