// SPDX-License-Identifier: GPL-2.0-or-later
import NIOHTTP1

/// One route of the control server: a method and a path (inside the page's path or at the root:
/// the same table serves both), whether it takes a JSON body, what it does (docs/control-api.md
/// lists the table; a test keeps the two the same), and its handler. `ControlRoutes.table` is
/// the one list: the 404 and 405 answers come from it too.
struct ControlRoute: Sendable {
    let method: HTTPMethod
    let path: String
    /// A command: its body is JSON (`Content-Type: application/json`, else 415).
    let takesJSON: Bool
    let summary: String
    /// Answered without a credential (`/api/hello`, which proves the server to a client before
    /// the client sends its token): the connection stays one that has not proven itself.
    var open = false
    let handler: @Sendable (ControlRoutes, ControlCall) async -> ControlResponse

    static func get(_ path: String, _ summary: String,
                    _ handler: @escaping @Sendable (ControlRoutes, ControlCall) async -> ControlResponse) -> ControlRoute {
        ControlRoute(method: .GET, path: path, takesJSON: false, summary: summary, handler: handler)
    }

    /// A `GET` anyone on loopback may ask (the Host and Origin checks still apply).
    static func openGet(_ path: String, _ summary: String,
                        _ handler: @escaping @Sendable (ControlRoutes, ControlRequest) -> ControlResponse) -> ControlRoute {
        ControlRoute(method: .GET, path: path, takesJSON: false, summary: summary, open: true) { routes, call in
            handler(routes, call.request)
        }
    }

    static func post(_ path: String, _ summary: String,
                     _ handler: @escaping @Sendable (ControlRoutes, ControlCall) async -> ControlResponse) -> ControlRoute {
        ControlRoute(method: .POST, path: path, takesJSON: true, summary: summary, handler: handler)
    }
}

/// A request that passed every check, and who made it.
struct ControlCall: Sendable {
    let request: ControlRequest
    /// The client, for the limits kept per client (`ControlAccess.Credential.client`).
    let client: String
}
