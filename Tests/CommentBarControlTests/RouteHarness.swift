// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A clock a test moves by hand (the one-time codes' lifetime).
final class ManualClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    func advance(by duration: Duration) {
        instant.withLock { $0 += duration }
    }
}

/// The control server's routes without a socket (as swift-nio tests its handlers in process):
/// requests go straight to `ControlRoutes.respond(to:)`; the event hub runs on a loop of NIO's
/// shared group. Real sockets are for what needs them (ControlServerTests).
struct RouteHarness {
    static let port = 11190
    static let host = "127.0.0.1:\(port)"
    let routes: ControlRoutes
    let clock: ManualClock
    var sessions: PageSessions { routes.access.sessions }

    /// One answer, its headers as the wire would carry them.
    struct Answer {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: String
        var authenticated: Bool
    }

    init(backend: any ControlBackend = RecordingBackend(), token: TokenWatch = TokenWatch(fixed: TestSupport.token))
        async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let hub = try await loop.submit { HubAccess(EventHub(eventLoop: loop)) }.get()
        let clock = ManualClock()
        self.clock = clock
        let sessions = PageSessions(lifetime: .seconds(60), now: { clock.now })
        routes = ControlRoutes(access: ControlAccess(port: Self.port, token: token, sessions: sessions),
                               backend: backend, hub: hub, log: TestSupport.log)
    }

    /// `path` asked as a browser or a tool would: `Host` is this server's unless given; the token as
    /// a bearer header unless `bearer` is false; a body is sent as JSON unless a type is given.
    func call(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil,
              host: String? = RouteHarness.host, bearer: Bool = true) async -> Answer {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        if let host { head.headers.add(name: "Host", value: host) }
        if bearer { head.headers.add(name: "Authorization", value: "Bearer \(TestSupport.token)") }
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if body != nil, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            head.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = await routes.respond(to: ControlRequest(head: head, body: ByteBuffer(string: body ?? "")))
        return Answer(status: response.status, headers: HTTPHeaders(response.headers.map { ($0.name, $0.value) }),
                      body: String(decoding: response.body, as: UTF8.self), authenticated: response.authenticated)
    }

    /// A page session, as a browser gets it: a one-time code swapped for the cookie; the `Cookie`
    /// header the browser then sends under the page's path.
    func openPage() async -> String? {
        let code = sessions.issueCode()
        let opened = await call(sessions.path + "/?code=" + code, bearer: false)
        guard let cookie = opened.headers.first(name: "Set-Cookie") else { return nil }
        return String(cookie.prefix { $0 != ";" })
    }

    /// Publishes a comment as the bar would (on the hub's loop; later requests come after it).
    func publish(_ line: ChatLine, platform: String = "twitch", channel: String = "streamer") {
        let comment = ControlEvent.Comment(id: line.id, platform: platform, channel: channel, platformColour: "#9146ff",
                                           user: line.login ?? line.user, name: line.user, text: line.text, time: 1)
        routes.hub.execute { $0.publish(.comment(comment), line: line) }
    }

    func publish(_ body: ControlEvent.Body) {
        routes.hub.execute { $0.publish(body) }
    }
}
