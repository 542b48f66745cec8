// SPDX-License-Identifier: GPL-2.0-or-later
import NIOHTTP1

extension ControlRoutes {
    /// Every route, once: docs/control-api.md's "Routes" list is this table (ControlRouteTableTests).
    static let table: [ControlRoute] = [
        .get("/", "the control page") { _, _ in ControlPage.answer("control.html") },
        .get("/control.js", "the page's script") { _, _ in ControlPage.answer("control.js") },
        .get("/control.css", "the page's style") { _, _ in ControlPage.answer("control.css") },
        .get("/audience.js", "the page's audience panel (polls, the queue, giveaways)") { _, _ in ControlPage.answer("audience.js") },
        .get("/api/words", "the page's words in the browser's language (the locale files' Page.* keys)") { _, call in
            PageWords.answer(call.request.query["lang"])
        },
        .get("/api/events", "the events, as a WebSocket (426 without the upgrade)") { _, _ in
            .error(.upgradeRequired, "this is a WebSocket: connect with a WebSocket client")
        },
        .get("/api/comments", "the newest comments, or those after an event") { routes, call in await routes.comments(call) },
        .get("/api/search", "search the chat log") { routes, call in await routes.search(call) },
        .get("/api/state", "the newest event's number, the pin, the streams") { routes, _ in await routes.state() },
        .post("/api/pin", "pin a comment on the bar") { routes, call in await routes.pin(call) },
        .post("/api/unpin", "take the pin away") { routes, call in routes.unpin(call) },
        .post("/api/viewer", "a viewer's nickname, colour, voice or hiding") { routes, call in await routes.viewer(call) },
        .post("/api/speech/skip", "stop what speech reads now") { routes, _ in routes.skipSpeech() },
        .post("/api/speech/pause", "pause or resume speech") { routes, call in routes.pauseSpeech(call) },
        .post("/api/poll", "start a poll (an open one closes first)") { routes, call in routes.startPoll(call) },
        .post("/api/poll/close", "close the open poll") { routes, _ in routes.closePoll() },
        .post("/api/poll/dismiss", "take the closed poll's result off the bar") { routes, _ in routes.dismissPoll() },
        .get("/api/poll", "the open poll, or the last one closed") { routes, _ in routes.currentPoll() },
        .get("/api/queue", "the 参加型 queue: who plays now and who waits") { routes, _ in routes.currentQueue() },
        .post("/api/queue/open", "open the queue (or give it new rules)") { routes, call in routes.openQueue(call) },
        .post("/api/queue/close", "close the queue (its list goes)") { routes, _ in routes.closeQueue() },
        .post("/api/queue/next", "call the next ones to play") { routes, call in routes.nextInQueue(call) },
        .post("/api/queue/done", "those playing are done") { routes, _ in routes.queueDone() },
        .post("/api/queue/remove", "take a viewer out of the queue") { routes, call in routes.removeFromQueue(call) },
        .post("/api/queue/move", "move a waiting viewer to a place in the line") { routes, call in routes.moveInQueue(call) },
        .post("/api/giveaway", "start a giveaway (抽選) with an entry word") { routes, call in routes.startGiveaway(call) },
        .post("/api/giveaway/draw", "draw a winner (a re-draw never repeats one)") { routes, _ in routes.drawGiveaway() },
        .post("/api/giveaway/dismiss", "take the winner off the bar") { routes, _ in routes.dismissGiveaway() },
        .get("/api/giveaway", "the giveaway: entries and winners") { routes, _ in routes.currentGiveaway() },
        .post("/api/page-link", "a one-time link that opens the page") { routes, _ in routes.pageLink() },
        .openGet(ControlHello.path, "proves this is the token holder's renderer (no credential)") { routes, request in
            routes.hello(request)
        },
    ]

    enum Match {
        case route(ControlRoute)
        /// No route: the answer (404, or 405 with `Allow`).
        case refused(ControlResponse)
    }

    /// The route of `method` and `path`, or the answer when there is none: 404 for a path the
    /// table does not have, 405 (with `Allow`) for one it has with other methods.
    static func route(_ method: HTTPMethod, _ path: String) -> Match {
        let routes = table.filter { $0.path == path }
        if let route = routes.first(where: { $0.method == method }) { return .route(route) }
        guard !routes.isEmpty else { return .refused(.error(.notFound, "no such page or command")) }
        let allowed = routes.map(\.method.rawValue).joined(separator: ", ")
        var refused = ControlResponse.error(.methodNotAllowed, "use \(allowed)")
        refused.headers.append(("Allow", allowed))
        return .refused(refused)
    }
}
