// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1

/// One route of the OneComme server (`OneCommeRoutes.table`, the one list: the 404 and 405
/// answers and docs/doors.md's list come from it): the paths it answers, a path ending in `*`
/// answering every path that begins with what is before the star; what it is, for the docs; what
/// its answers carry; and its handler. Every route is GET (and HEAD): the server is read-only.
struct OneCommeRoute: Sendable {
    let paths: [String]
    let summary: String
    let kind: Kind
    let answer: @Sendable (OneCommeRoutes, OneCommeCall) -> EventLoopFuture<OneCommeResponse>

    enum Kind: Sendable {
        /// OneComme's API: its answers may be read by a page of this server's other loopback name
        /// (CORS for its own origins only).
        case api
        /// A page of the bar's own (the index, the presets, `__origin`): its answers carry the
        /// Content-Security-Policy that lets it connect to this server only.
        case ownPage
        /// The user's templates, and anything else: no header of either kind.
        case plain
    }

    init(_ paths: [String], _ summary: String, _ kind: Kind,
         _ answer: @escaping @Sendable (OneCommeRoutes, OneCommeCall) -> EventLoopFuture<OneCommeResponse>) {
        self.paths = paths
        self.summary = summary
        self.kind = kind
        self.answer = answer
    }

    /// A route answered at once, on the event loop.
    static func now(_ paths: [String], _ summary: String, _ kind: Kind,
                    _ answer: @escaping @Sendable (OneCommeRoutes, OneCommeCall) -> OneCommeResponse) -> OneCommeRoute {
        OneCommeRoute(paths, summary, kind) { routes, call in call.loop.makeSucceededFuture(answer(routes, call)) }
    }

    /// The part of `path` (the query left off) after this route's pattern `pattern`, or nil: it
    /// does not match. An exact pattern leaves nothing.
    static func rest(of path: Substring, under pattern: String) -> Substring? {
        if pattern.hasSuffix("*") {
            let prefix = pattern.dropLast()
            return path.hasPrefix(prefix) ? path.dropFirst(prefix.count) : nil
        }
        return path == pattern ? path.dropFirst(path.count) : nil
    }
}

/// A request that passed the Host check, and where it landed.
struct OneCommeCall: Sendable {
    let request: HTTPRequestHead
    /// The `Host` it named (one of the server's own, lower case).
    let host: String
    /// The path after the route's `*` (empty for an exact path), without the query.
    let rest: Substring
    let loop: any EventLoop
}
