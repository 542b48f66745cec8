// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarCore
import CommentBarTestSupport
import FoundationEssentials
import NIOHTTP1
import Testing

/// What the server answers, in process (`ControlRoutes.respond(to:)`, no socket): the checks,
/// the page's one-time codes and session cookie, the commands and the limits.
@Suite struct ControlRoutesTests {
    @Test func withoutACredentialEveryPathIs401() async throws {
        let harness = try await RouteHarness()
        let page = harness.sessions.path
        for path in ["/", "/control.js", "/api/comments", "/api/state", "/api/events", "/no-such-thing",
                     page + "/", page + "/control.js", page + "/api/state"] {
            let answer = await harness.call(path, bearer: false)
            #expect(answer.status == .unauthorized, "\(path)")
            #expect(answer.headers.first(name: "Set-Cookie") == nil)
            #expect(!answer.body.contains(TestSupport.token) && !answer.body.contains(page))
            #expect(!answer.authenticated)
        }
        let wrong = await harness.call(page + "/api/state", headers: [("Cookie", "commentbar_session=00")], bearer: false)
        #expect(wrong.status == .unauthorized)
        let wrongBearer = await harness.call("/api/state", headers: [("Authorization", "Bearer \(String(repeating: "cd", count: 32))")],
                                             bearer: false)
        #expect(wrongBearer.status == .unauthorized)
        let post = await harness.call("/api/pin", method: .POST, body: #"{"id":"x"}"#, bearer: false)
        #expect(post.status == .unauthorized)
        #expect(post.headers.first(name: "WWW-Authenticate") == "Bearer realm=\"commentbar\"")
    }

    @Test func aForeignHostIsRefusedEvenWithTheToken() async throws {
        let harness = try await RouteHarness()
        for host in ["evil.example:\(RouteHarness.port)", "127.0.0.1", "localhost:1", nil] {
            #expect(await harness.call("/api/state", host: host).status == .forbidden, "\(host ?? "no Host")")
        }
        for host in ["127.0.0.1:\(RouteHarness.port)", "localhost:\(RouteHarness.port)", "[::1]:\(RouteHarness.port)"] {
            #expect(await harness.call("/api/state", host: host).status == .ok, "\(host)")
        }
    }

    @Test func answersCarryTheSecurityHeadersAndNoCORS() async throws {
        let harness = try await RouteHarness()
        let page = await harness.call("/", headers: [("Origin", "http://\(RouteHarness.host)")])
        #expect(page.status == .ok)
        #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
        #expect(page.body.contains(#"<script src="control.js" defer>"#))
        let policy = page.headers.first(name: "Content-Security-Policy") ?? ""
        #expect(policy.contains("default-src 'self'") && policy.contains("connect-src 'self' ws://\(RouteHarness.host)"))
        #expect(page.headers.first(name: "X-Frame-Options") == "DENY")
        #expect(page.headers.first(name: "Cache-Control") == "no-store")
        #expect(!page.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        let foreign = await harness.call("/api/state", headers: [("Origin", "http://evil.example")])
        #expect(foreign.status == .forbidden)
        let script = await harness.call("/control.js")
        #expect(script.headers.first(name: "Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.body.contains("api/words?lang="))
    }

    /// The token in an address opens nothing: an old `/?token=` link (in a browser's history)
    /// gives no cookie.
    @Test func theTokenInAnAddressIsNoLogin() async throws {
        let harness = try await RouteHarness()
        for path in ["/?token=\(TestSupport.token)", harness.sessions.path + "/?token=\(TestSupport.token)",
                     "/api/state?token=\(TestSupport.token)"] {
            let answer = await harness.call(path, bearer: false)
            #expect(answer.status == .unauthorized, "\(path)")
            #expect(answer.headers.first(name: "Set-Cookie") == nil)
        }
    }

    @Test func aOneTimeCodeOpensThePageOnceAndItsCookieStaysUnderThePagesPath() async throws {
        let harness = try await RouteHarness()
        let page = harness.sessions.path
        #expect(page.hasPrefix("/p/") && page.count == 3 + 32)
        let code = harness.sessions.issueCode()
        let opened = await harness.call(page + "/?code=" + code, bearer: false)
        #expect(opened.status == .seeOther)
        #expect(opened.headers.first(name: "Location") == page + "/", "the address the browser keeps has no code")
        let cookie = try #require(opened.headers.first(name: "Set-Cookie"))
        let attributes = cookie.split(separator: ";").map { String($0.drop(while: { $0 == " " })) }
        #expect(attributes.first?.hasPrefix("commentbar_session=") == true)
        #expect(!cookie.contains(TestSupport.token), "the session is not the token")
        #expect(Set(attributes.dropFirst()) == ["Path=\(page)/", "HttpOnly", "SameSite=Strict"])
        let session = String(cookie.prefix { $0 != ";" })
        for path in [page + "/", page + "/control.js", page + "/api/state"] {
            let answer = await harness.call(path, headers: [("Cookie", session)], bearer: false)
            #expect(answer.status == .ok, "\(path)")
            #expect(answer.authenticated)
        }
        // The cookie counts only under the page's path (a browser sends it nowhere else).
        #expect(await harness.call("/api/state", headers: [("Cookie", session)], bearer: false).status == .unauthorized)
        // Once only.
        let again = await harness.call(page + "/?code=" + code, bearer: false)
        #expect(again.status == .unauthorized)
        #expect(again.headers.first(name: "Set-Cookie") == nil)
        #expect(await harness.call(page + "/?code=" + String(repeating: "0", count: 32), bearer: false).status
                == .unauthorized)
        // A code is not a credential anywhere else.
        let other = harness.sessions.issueCode()
        #expect(await harness.call(page + "/api/state?code=" + other, bearer: false).status == .unauthorized)
        #expect(await harness.call("/?code=" + other, bearer: false).status == .unauthorized)
    }

    @Test func aCodeWorksForAMinuteOnly() async throws {
        let harness = try await RouteHarness()
        let late = harness.sessions.issueCode()
        harness.clock.advance(by: .seconds(59))
        let inTime = harness.sessions.issueCode()
        harness.clock.advance(by: .seconds(2))
        #expect(await harness.call(harness.sessions.path + "/?code=" + late, bearer: false).status == .unauthorized)
        #expect(await harness.call(harness.sessions.path + "/?code=" + inTime, bearer: false).status == .seeOther)
    }

    /// Another page on 127.0.0.1 can set a cookie of the same name with a longer path, which the
    /// browser sends first: the page's own still counts.
    @Test func everyCookieOfTheNameIsTriedNotOnlyTheFirst() async throws {
        let harness = try await RouteHarness()
        let session = try #require(await harness.openPage())
        let tossed = "commentbar_session=\(String(repeating: "e", count: 64))"
        for header in ["\(tossed); \(session)", "other=1; \(tossed); \(session); last=2", "\(session); \(tossed)"] {
            let answer = await harness.call(harness.sessions.path + "/api/state", headers: [("Cookie", header)], bearer: false)
            #expect(answer.status == .ok, "\(header)")
        }
        let onlyTossed = await harness.call(harness.sessions.path + "/api/state", headers: [("Cookie", tossed)], bearer: false)
        #expect(onlyTossed.status == .unauthorized)
    }

    @Test func theEventSocketTakesTheSameCredentials() async throws {
        let harness = try await RouteHarness()
        let session = try #require(await harness.openPage())
        let page = harness.sessions.path
        func head(_ uri: String, _ headers: [(String, String)]) -> HTTPRequestHead {
            HTTPRequestHead(version: .http1_1, method: .GET, uri: uri,
                            headers: HTTPHeaders([("Host", RouteHarness.host)] + headers))
        }
        let bearer = ("Authorization", "Bearer \(TestSupport.token)")
        let origin = ("Origin", "http://\(RouteHarness.host)")
        #expect(harness.routes.mayOpenEvents(head("/api/events", [bearer])))
        #expect(harness.routes.mayOpenEvents(head(page + "/api/events", [("Cookie", session), origin])))
        #expect(harness.routes.mayOpenEvents(head("/api/events?token=\(TestSupport.token)", [])), "a tool that sets no header")
        #expect(!harness.routes.mayOpenEvents(head("/api/events", [])))
        #expect(!harness.routes.mayOpenEvents(head("/api/events", [("Cookie", session)])), "the cookie is the page's only")
        #expect(!harness.routes.mayOpenEvents(head(page + "/api/events?token=\(TestSupport.token)", [])))
        #expect(!harness.routes.mayOpenEvents(head(page + "/api/events", [("Cookie", session), ("Origin", "http://evil.example")])))
        #expect(!harness.routes.mayOpenEvents(head("/api/state", [bearer])))
    }

    @Test func pollingGivesTheCommentsAfterASequenceNumber() async throws {
        let harness = try await RouteHarness()
        for index in 0..<5 { harness.publish(TestSupport.comment("m\(index)")) }
        harness.publish(.delete(.init(id: "m1", platform: "twitch", channel: "streamer")))
        struct Page: Decodable { var comments: [ControlEvent] }
        let answer = await harness.call("/api/comments?since=2&limit=10")
        let page = try JSONDecoder().decode(Page.self, from: Data(answer.body.utf8))
        // m1 was deleted by moderation: it is not served again; 3, 4, 5 came after event 2.
        #expect(page.comments.map(\.seq) == [3, 4, 5])
        #expect(await harness.call("/api/comments?limit=-1").status == .badRequest)
        #expect(await harness.call("/api/comments?since=x").status == .badRequest)
    }

    @Test func commandsReachTheBackend() async throws {
        let backend = RecordingBackend(pinUntil: 1234)
        let harness = try await RouteHarness(backend: backend)
        harness.publish(TestSupport.comment("m1", user: "bob", text: "pin me"))
        let pinned = await harness.call("/api/pin", method: .POST, body: #"{"id":"m1"}"#)
        #expect(pinned.status == .ok && pinned.body.contains(#""until":1234"#))
        #expect(backend.calls.withLock { $0.pinned.map(\.text) } == ["pin me"])
        #expect(await harness.call("/api/pin", method: .POST, body: #"{"id":"zz"}"#).status == .notFound)
        #expect(await harness.call("/api/pin", method: .POST, body: "{}").status == .badRequest)
        #expect(await harness.call("/api/unpin", method: .POST, body: #"{"id":"m1"}"#).status == .ok)
        #expect(backend.calls.withLock { $0.unpinned } == ["m1"])

        let viewer = #"{"platform":"twitch","channel":"streamer","user":"bob","nickname":"ボブ","hidden":true}"#
        #expect(await harness.call("/api/viewer", method: .POST, body: viewer).status == .ok)
        #expect(backend.calls.withLock { $0.viewers } == [ViewerChoice(platform: "twitch", channel: "streamer", user: "bob",
                                                                        nickname: "ボブ", hidden: true)])
        let voiced = #"{"platform":"twitch","channel":"streamer","user":"amy","voice":"en+f3"}"#
        #expect(await harness.call("/api/viewer", method: .POST, body: voiced).status == .ok)
        #expect(backend.calls.withLock { $0.viewers.last?.voice } == "en+f3")
        for bad in [#"{"platform":"twitch","channel":"streamer","user":"bob"}"#,
                    #"{"platform":"twitch","channel":"streamer","user":"bob","voice":"en\n-w /tmp/x"}"#,
                    #"{"platform":"twitch","channel":"streamer","user":"bob","colour":"red"}"#,
                    #"{"platform":"twitch","channel":"streamer","user":"bob","nickname":"12345678901234567"}"#,
                    #"{"platform":"twitch","user":"bob","hidden":true}"#, "not json"] {
            #expect(await harness.call("/api/viewer", method: .POST, body: bad).status == .badRequest, "\(bad)")
        }
        #expect(backend.calls.withLock { $0.viewers.count } == 2)
        let notJSON = await harness.call("/api/speech/skip", method: .POST, headers: [("Content-Type", "text/plain")], body: "{}")
        #expect(notJSON.status == .unsupportedMediaType)
        #expect(await harness.call("/api/speech/skip", method: .POST, body: "{}").status == .ok)
        let pause = await harness.call("/api/speech/pause", method: .POST, body: #"{"paused":true}"#)
        #expect(pause.body.contains(#""paused":true"#))
        #expect(backend.calls.withLock { ($0.skips, $0.paused) } == (1, true))
    }

    @Test func viewerChoicesWithoutAMemoryAre503() async throws {
        let harness = try await RouteHarness(backend: RecordingBackend(viewerOutcome: .unavailable("no memory")))
        let answer = await harness.call("/api/viewer", method: .POST, body: #"{"platform":"twitch","channel":"c","user":"u","hidden":true}"#)
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.body.contains("no memory"))
    }

    /// 404 and 405 come from the one table: every path it has answers 405 (with `Allow`) to a
    /// method it is not served with, any other path 404.
    @Test func notFoundAndMethodNotAllowedComeFromTheTable() async throws {
        let harness = try await RouteHarness()
        for route in ControlRoutes.table {
            let other: HTTPMethod = route.method == .GET ? .POST : .GET
            // A path served with both (`/api/poll`) has no other method to refuse.
            let methods = ControlRoutes.table.filter { $0.path == route.path }.map(\.method)
            guard !methods.contains(other) else { continue }
            let answer = await harness.call(route.path, method: other, body: other == .POST ? "{}" : nil)
            #expect(answer.status == .methodNotAllowed, "\(other) \(route.path)")
            #expect(answer.headers.first(name: "Allow") == methods.map(\.rawValue).joined(separator: ", "))
            let underPage = await harness.call(harness.sessions.path + route.path, method: other,
                                               body: other == .POST ? "{}" : nil)
            #expect(underPage.status == .methodNotAllowed, "\(other) page \(route.path)")
        }
        for path in ["/api/nothing", "/index.html", "/api", "/control.js/x", "/p/0123/", "/API/state"] {
            #expect(await harness.call(path).status == .notFound, "\(path)")
            #expect(await harness.call(path, method: .POST, body: "{}").status == .notFound, "POST \(path)")
        }
        #expect(await harness.call(harness.sessions.path).status == .permanentRedirect)
    }

    /// At most one search in flight per client: a second one of the same client is 429 while the
    /// first runs; another client's goes through.
    @Test func oneSearchAtATimePerClient() async throws {
        let gate = Gate()
        let backend = RecordingBackend(searchGate: gate)
        let harness = try await RouteHarness(backend: backend)
        let session = try #require(await harness.openPage())
        let first = Task { await harness.call("/api/search?q=first") }
        #expect(await TestSupport.eventually { backend.calls.withLock { $0.searches } == ["first"] })
        let second = await harness.call("/api/search?q=second")
        #expect(second.status == .tooManyRequests)
        #expect(second.headers.first(name: "Retry-After") == "1")
        let page = Task { await harness.call(harness.sessions.path + "/api/search?q=page", headers: [("Cookie", session)],
                                             bearer: false) }
        #expect(await TestSupport.eventually { backend.calls.withLock { $0.searches } == ["first", "page"] })
        gate.open()
        #expect(await first.value.status == .ok)
        #expect(await page.value.status == .ok)
        #expect(await harness.call("/api/search?q=third").status == .ok)
        #expect(await harness.call("/api/search?q=").status == .badRequest)
    }

    @Test func aPageLinkIsAskedForWithTheToken() async throws {
        let harness = try await RouteHarness()
        let answer = await harness.call("/api/page-link", method: .POST, body: "{}")
        #expect(answer.status == .ok)
        struct Link: Decodable { var url: String; var expires_in: Int }
        let link = try JSONDecoder().decode(Link.self, from: Data(answer.body.utf8))
        #expect(link.expires_in == 60)
        let prefix = "http://\(RouteHarness.host)\(harness.sessions.path)/?code="
        #expect(link.url.hasPrefix(prefix) && !link.url.contains(TestSupport.token))
        #expect(await harness.call(String(link.url.dropFirst("http://\(RouteHarness.host)".count)), bearer: false).status
                == .seeOther)
        #expect(await harness.call("/api/page-link", method: .POST, body: "{}", bearer: false).status == .unauthorized)
    }

    /// A new token (`control-url --rotate`) counts at the next request; the old one no longer does.
    @Test func aRotatedTokenCountsAtOnce() async throws {
        let folder = TemporaryFolder(prefix: "control-token")
        let watch = try TokenWatch(folder: folder.path, log: TestSupport.log)
        let harness = try await RouteHarness(token: watch)
        let old = try ControlToken.load(folder: folder.path).token
        let bearer = { (token: String) in [("Authorization", "Bearer \(token)")] }
        #expect(await harness.call("/api/state", headers: bearer(old), bearer: false).status == .ok)
        let new = try ControlToken.rotate(folder: folder.path)
        #expect(new != old)
        #expect(await harness.call("/api/state", headers: bearer(old), bearer: false).status == .unauthorized)
        #expect(await harness.call("/api/state", headers: bearer(new), bearer: false).status == .ok)
    }
}
