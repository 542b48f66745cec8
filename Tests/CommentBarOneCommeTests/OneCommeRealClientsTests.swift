// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarOneComme
import CommentBarTestSupport
import Foundation
import Glibc
import Logging
import NIOHTTP1
import XCTest

/// What the real templates ask of the server (issue 46): a page of one loopback name reading the
/// API of the other (Pintocuru/OmikenTemplates pings `http://localhost:11180/api/info`, kkkaoru's
/// flow-comment uses `http://127.0.0.1:11180`), `/api/info` as OneComme/OneSDK's `AppInfo`
/// (src/types/App.ts), routes we do not serve failing at once, our own pages unable to connect
/// anywhere else, and connections that prove nothing unable to shut a browser source out.
final class OneCommeRealClientsTests: XCTestCase, ServerUnderTest {
    var folder: TemporaryFolder!
    var server: OneCommeServer!

    override func setUp() async throws {
        folder = TemporaryFolder()
        server = try await Self.startServer(in: folder)
    }

    override func tearDown() async throws {
        await server.stop()
    }

    func testAPageOfTheOtherLoopbackNameMayReadTheAPIAndNoOtherPage() async throws {
        for origin in ["http://localhost:\(port)", "http://127.0.0.1:\(port)", "http://[::1]:\(port)", "HTTP://LOCALHOST:\(port)"] {
            for path in ["/api/info", "/api/comments", "/api/plugins/flow"] {
                let answer = try await request(path, headers: [("Origin", origin)])
                XCTAssertEqual(answer.headers.first(name: "Access-Control-Allow-Origin"), origin.lowercased(), "\(origin) \(path)")
                XCTAssertEqual(answer.headers.first(name: "Vary"), "Origin")
            }
        }
        for origin in ["https://attacker.example", "http://127.0.0.1:\(port + 1)", "http://localhost", "null", "http://127.0.0.2:\(port)"] {
            let answer = try await request("/api/comments", headers: [("Origin", origin)])
            XCTAssertNil(answer.headers.first(name: "Access-Control-Allow-Origin"), origin)
        }
        let plain = try await request("/api/info")
        XCTAssertNil(plain.headers.first(name: "Access-Control-Allow-Origin"))
        let page = try await request("/templates/preset/bar/", headers: [("Origin", "http://localhost:\(port)")])
        XCTAssertNil(page.headers.first(name: "Access-Control-Allow-Origin"), "only the API is shared")
    }

    func testInfoIsOneCommesAppInfoAndClaimsNoLicence() async throws {
        let info = try await request("/api/info")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(info.body.utf8)) as? [String: Any])
        XCTAssertEqual(object["port"] as? Int, port)
        XCTAssertEqual(object["licensed"] as? Bool, false)
        XCTAssertEqual(object["templatePath"] as? String, folder.file("templates"))
        XCTAssertEqual(object["templateUrl"] as? String, "http://127.0.0.1:\(port)/templates/")
        XCTAssertNotNil(object["platform"] as? String)
    }

    func testRoutesWeDoNotServeFailAtOnceWithJSON() async throws {
        for (path, method, status) in [("/api/plugins/flow-comment", HTTPMethod.GET, HTTPResponseStatus.notFound),
                                       ("/api/orders/uc1", .GET, .notFound), ("/api/setlists/current", .GET, .notFound),
                                       ("/api/comments", .POST, .methodNotAllowed), ("/api/orders", .DELETE, .methodNotAllowed)] {
            let answer = try await request(path, method: method, body: method == .GET ? nil : Array("{}".utf8))
            XCTAssertEqual(answer.status, status, "\(method) \(path)")
            XCTAssertTrue(answer.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true, "\(method) \(path)")
            let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            XCTAssertNotNil(object?["error"] as? String, answer.body)
        }
    }

    /// A link with `?host=attacker.example` must not make our own pages talk to it, whatever
    /// onesdk.js does: the browser enforces `connect-src`.
    func testOurOwnPagesMayConnectOnlyToThisServer() async throws {
        for path in ["/templates/preset/bar/", "/templates/preset/simple/index.html", "/templates/preset/__origin/js/onesdk.js", "/"] {
            let answer = try await request(path)
            XCTAssertEqual(answer.status, .ok, path)
            let policy = try XCTUnwrap(answer.headers.first(name: "Content-Security-Policy"), path)
            XCTAssertTrue(policy.hasPrefix("connect-src 'self' http://127.0.0.1:\(port) ws://127.0.0.1:\(port) "
                                           + "http://localhost:\(port) ws://localhost:\(port);"), policy)
            XCTAssertTrue(policy.contains("frame-ancestors 'none'"), policy)
            XCTAssertFalse(policy.contains("*"), policy)
        }
        // A user's template may load what it likes (fonts, pictures from the web): no policy of ours.
        let mine = try await request("/templates/custom/mine/index.html")
        XCTAssertNil(mine.headers.first(name: "Content-Security-Policy"))
    }

    /// 64 sockets trickling a request and 64 `/sub` clients without an Origin (no browser) take no
    /// slot a browser source needs: its page and its `/sub` still come.
    func testTricklingSocketsAndOriginlessSubscribersNeverShutABrowserOut() async throws {
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        for index in 0..<64 {
            let fd = connectRaw()
            sendRaw(fd, "GET /templates/preset/bar/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow-\(index): ")
            sockets.append(fd)
        }
        for _ in 0..<64 { sockets.append(openSubscription(origin: nil)) }
        let start = ContinuousClock.now
        let page = try await request("/templates/preset/bar/")
        XCTAssertEqual(page.status, .ok)
        let browser = openSubscription(origin: "http://127.0.0.1:\(port)")
        sockets.append(browser)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(browser, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer = [UInt8](repeating: 0, count: 512)
        let count = recv(browser, &answer, answer.count, 0)
        XCTAssertTrue(count > 0 && String(decoding: answer[0..<count], as: UTF8.self).hasPrefix("HTTP/1.1 101"),
                      "the browser's /sub is upgraded")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        let counts = try await waitForCounts { $0.clients >= 1 }
        XCTAssertLessThanOrEqual(counts.open, OneCommeServer.maxConnections)
        XCTAssertGreaterThanOrEqual(counts.evicted, 128 - OneCommeServer.maxUnproven)
        // The browser's subscription kept its slot while the others were closed for newcomers.
        for _ in 0..<32 { sockets.append(connectRaw()) }
        let after = try await waitForCounts { $0.evicted >= 128 + 32 - OneCommeServer.maxUnproven }
        XCTAssertGreaterThanOrEqual(after.evicted, 128 + 32 - OneCommeServer.maxUnproven)
        var byte: UInt8 = 0
        var read = 0
        repeat { read = recv(browser, &byte, 1, Int32(MSG_DONTWAIT)) } while read > 0
        XCTAssertTrue(read < 0 && errno == EAGAIN, "the browser's /sub is still open (read \(read))")
    }
}
