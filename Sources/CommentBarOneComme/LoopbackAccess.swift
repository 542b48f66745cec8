// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet

/// Who may use the OneComme server: requests that name it by one of its own loopback names, and,
/// for the WebSocket, from one of its own pages (`LoopbackNames`, the control server's rule too);
/// this server has no token, its answers are the chat the templates show, and nothing on it
/// changes the bar. Its pages may call its other name (CORS), and may connect only to it (CSP).
struct LoopbackAccess: Sendable {
    let names: LoopbackNames
    var port: Int { names.port }

    init(port: Int) {
        names = LoopbackNames(port: port)
    }

    /// The `Host` header as allowed (lower case), or nil: refused.
    func host(_ header: String?) -> String? { names.host(header) }

    /// This server's own origins: a page of one name may call the other (OneComme's templates
    /// ping `http://localhost:11180` or `http://127.0.0.1:11180` whatever their own address; a
    /// page on the other name is cross-origin to the browser, and without this header the
    /// template decides OneComme is not running). Never `*`, never another port.
    var origins: [String] { names.origins }

    /// The `Access-Control-Allow-Origin` for a request from `origin`, or nil: none is sent.
    func corsOrigin(_ origin: String?) -> String? {
        guard let origin = origin?.lowercased(), origins.contains(origin) else { return nil }
        return origin
    }

    /// What this server's own pages (the presets, `__origin`) may connect to: its own origins,
    /// whatever a page's address or a script says (`onesdk.js` follows `?host=`/`?port=` in
    /// OneComme's own SDK); never framed by another page. `[::1]` is `'self'`'s (CSP has no
    /// form for an IPv6 address).
    var contentSecurityPolicy: String {
        let own = ["127.0.0.1", "localhost"].flatMap { ["http://\($0):\(port)", "ws://\($0):\(port)"] }
        return "connect-src 'self' \(own.joined(separator: " ")); frame-ancestors 'none'; object-src 'none'; base-uri 'none'"
    }

    /// A browser's `Origin` must be this server's own page; a program that sends none (a script,
    /// OBS's own requests) is judged by the Host alone.
    func originAllowed(_ origin: String?, host: String) -> Bool { names.originAllowed(origin, host: host) }
}
