// SPDX-License-Identifier: GPL-2.0-or-later
import NIOHTTP1

extension OneCommeRoutes {
    /// Every route, once: docs/doors.md's list of the server's routes is this table
    /// (OneCommeRouteTableTests), and a path none of them matches is 404. Nothing of the control
    /// server's (`/api/events`, `/api/pin`, …) answers here.
    static let table: [OneCommeRoute] = [
        OneCommeRoute(["/", "/templates", "/templates/"], "the list of templates (the presets and yours)", .ownPage) { routes, call in
            routes.index(host: call.host, on: call.loop)
        },
        .now(["/sub"], "the WebSocket of comments and events (`?p=comments,deleted,…`), from this server's own pages",
             .plain) { _, _ in
            .text(.badRequest, "/sub is a WebSocket, opened from this server's own pages.")
        },
        .now(["/api/info"], "OneComme's `AppInfo` (`licensed` always `false`)", .api) { routes, _ in routes.info() },
        .now(["/api/comments"], "the newest comments, oldest first", .api) { routes, _ in
            .json(OneCommeMessage.encode(routes.hub.value.comments))
        },
        .now(["/api/comments/pinned"], "the pinned comment, or `null`", .api) { routes, _ in
            .json(OneCommeMessage.encode(routes.hub.value.pinned))
        },
        .now(["/api/services"], "the streams (OneComme's connections)", .api) { routes, _ in
            .json(OneCommeMessage.encode(routes.hub.value.services))
        },
        .now(["/api/orders"], "the 参加型 queue in OneComme's `OrderItem` shape, playing first (read-only)", .api) { routes, _ in
            .json(OneCommeMessage.encode(routes.hub.value.orders))
        },
        .now(["/api/config"], "`{}`: the bar has no OneComme settings", .api) { _, _ in .json(Array("{}".utf8)) },
        .now(["/api/*"], "any other OneComme route (`plugins/…`, `setlists/…`, …): a JSON 404 at once, so a template falls back",
             .api) { _, call in
            .jsonError(.notFound, "CommentBar does not serve /api/\(call.rest)")
        },
        .now(["/templates/preset/__origin/*", "/templates/custom/__origin/*"],
             "`../__origin/` of a template: CommentBar's `onesdk.js`, the CSS, Vue", .ownPage) { routes, call in
            routes.origin(call.rest)
        },
        .now(["/templates/preset/*"], "the bar's own templates (`bar`, `simple`)", .ownPage) { _, call in
            OneCommeRoutes.preset(call.rest)
        },
        OneCommeRoute(["/templates/custom/*"], "your templates (`~/.local/share/comment-bar/templates/`)", .plain) { routes, call in
            routes.custom(call.rest, on: call.loop)
        },
    ]

    /// The methods every route takes: the server is read-only.
    static let methods: [HTTPMethod] = [.GET, .HEAD]

    /// The route of `path` (the query left off) and what is left of the path after its pattern: an
    /// exact path first, else the longest `*` pattern that matches; nil: 404.
    static func route(for path: Substring) -> (route: OneCommeRoute, rest: Substring)? {
        var best: (route: OneCommeRoute, rest: Substring, length: Int)?
        for route in table {
            for pattern in route.paths {
                guard let rest = OneCommeRoute.rest(of: path, under: pattern) else { continue }
                let length = pattern.hasSuffix("*") ? pattern.count - 1 : Int.max
                if length > best?.length ?? -1 { best = (route, rest, length) }
            }
        }
        return best.map { ($0.route, $0.rest) }
    }

    /// The answer to a request whose method no route takes (405, with `Allow`; JSON for an API
    /// route, which a template reads), or nil: the method is taken.
    static func refusal(method: HTTPMethod, uri: String) -> OneCommeResponse? {
        guard !methods.contains(method) else { return nil }
        let why = "This server is read-only: GET only."
        let api = route(for: path(of: uri))?.route.kind == .api
        let answer: OneCommeResponse = api ? .jsonError(.methodNotAllowed, why, closes: true) : .text(.methodNotAllowed, why, closes: true)
        return answer.adding(("Allow", methods.map(\.rawValue).joined(separator: ", ")))
    }

    /// A request's path without its query or fragment.
    static func path(of uri: String) -> Substring {
        uri.prefix { $0 != "?" && $0 != "#" }
    }
}
