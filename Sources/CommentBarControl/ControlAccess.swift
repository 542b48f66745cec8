// SPDX-License-Identifier: GPL-2.0-or-later

/// Who may use the control server: requests that name it on loopback (the `Host` header, against
/// DNS rebinding), carry the token (a bearer header, the page's cookie, or `?token=` once), and,
/// from a browser, come from its own page (the `Origin` header). No CORS header is ever sent, so
/// another site's page can neither read an answer nor send JSON.
public struct ControlAccess: Sendable {
    public let port: Int
    let token: String

    /// The page's cookie: sent back only to this host, never to other sites' requests, never to scripts.
    public static let cookieName = "commentbar_token"

    public init(port: Int, token: String) {
        self.port = port
        self.token = token
    }

    /// The host names a request may give: this server's own loopback addresses, with its port.
    public var allowedHosts: [String] { ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"] }

    /// The `Host` header as allowed (lower case), or nil: refused.
    public func host(_ header: String?) -> String? {
        guard let header else { return nil }
        let host = header.lowercased()
        return allowedHosts.contains(host) ? host : nil
    }

    /// A browser's `Origin` must be the page's own (`http://` and the host it asked for); a
    /// program that sends none (websocat, a script) is judged by its token alone.
    public func originAllowed(_ origin: String?, host: String) -> Bool {
        guard let origin else { return true }
        return origin.lowercased() == "http://" + host
    }

    /// How a request proved it knows the token.
    public enum Credential: Sendable, Equatable {
        case bearer
        case cookie
        /// `?token=`: a page opened from `control-url` gets the cookie and is sent on without it.
        case query
        case none
    }

    /// Which of the request's proofs is the token (a wrong one counts as none).
    public func credential(authorization: String?, cookie: String?, queryToken: String?) -> Credential {
        if let authorization, authorization.hasPrefix("Bearer "),
           ControlToken.matches(authorization.dropFirst("Bearer ".count), token) {
            return .bearer
        }
        if let cookie, let value = Self.cookieValue(cookie, name: Self.cookieName), ControlToken.matches(value, token) {
            return .cookie
        }
        if let queryToken, ControlToken.matches(queryToken, token) { return .query }
        return .none
    }

    /// `Set-Cookie` for the page: the token, for this host's every path, never to scripts nor
    /// with any cross-site request.
    public var setCookie: String { "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    /// A cookie's value in a `Cookie` header (`a=1; b=2`).
    static func cookieValue(_ header: String, name: String) -> Substring? {
        for part in header.split(separator: ";") {
            let pair = part.drop(while: { $0 == " " })
            if pair.hasPrefix(name + "=") { return pair.dropFirst(name.count + 1) }
        }
        return nil
    }
}
