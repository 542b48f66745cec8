// SPDX-License-Identifier: GPL-2.0-or-later
/// Who may use the OneComme server: only requests that name it by one of its own loopback names,
/// with its port (the `Host` header: against DNS rebinding, where another site's name is made to
/// point at 127.0.0.1 so its page could read this server), and, for the WebSocket, from one of
/// its own pages (`Origin`: a page of another site could otherwise open it and read the chat).
/// A few lines of the control server's rule (`ControlAccess`), written here: this server has no
/// token, its answers are the chat the templates show, and nothing on it changes the bar.
struct LoopbackAccess: Sendable {
    let port: Int

    /// The `Host` header as allowed (lower case), or nil: refused.
    func host(_ header: String?) -> String? {
        guard let host = header?.lowercased(),
              ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"].contains(host) else { return nil }
        return host
    }

    /// A browser's `Origin` must be this server's own page (`http://` and the host it asked for);
    /// a program that sends none (a script, OBS's own requests) is judged by the Host alone.
    func originAllowed(_ origin: String?, host: String) -> Bool {
        guard let origin else { return true }
        return origin.lowercased() == "http://" + host
    }
}
