// SPDX-License-Identifier: GPL-2.0-or-later

/// The names a server on loopback answers to, written once for the control server and the
/// OneComme server: a request must name it by one of its own loopback names with its port (the
/// `Host` header: against DNS rebinding, where another site's name is made to point at
/// 127.0.0.1 so its page could read the server), and a browser's request must come from one of
/// its own pages (the `Origin` header: another site's page could otherwise open its WebSocket).
public struct LoopbackNames: Sendable, Equatable {
    public let port: Int

    public init(port: Int) {
        self.port = port
    }

    /// The `Host` headers allowed: this server's own loopback addresses, with its port.
    public var hosts: [String] { ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"] }

    /// This server's own origins (a page served from one of its names).
    public var origins: [String] { ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"] }

    /// The `Host` header as allowed (lower case), or nil: refused.
    public func host(_ header: String?) -> String? {
        guard let host = header?.lowercased(), hosts.contains(host) else { return nil }
        return host
    }

    /// A browser's `Origin` must be the page's own (`http://` and the host it asked for); a
    /// program that sends none (a script, OBS's own requests, websocat) is judged by the rest of
    /// the server's rule (the Host alone, or its token).
    public func originAllowed(_ origin: String?, host: String) -> Bool {
        guard let origin else { return true }
        return origin.lowercased() == "http://" + host
    }
}
