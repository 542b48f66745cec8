// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import CommentBarFeeds
import CommentBarNetTesting
import XCTest
@testable import CommentBarNet

/// The real transport against a real HTTPS server on loopback (TLS verified with a test CA),
/// reached under test host names through COMMENTBAR_CONNECT_TO as the live tests do.
final class HTTPSTransportTests: XCTestCase {
    static let limits = WebLimits(maxBytes: 64 << 10, timeout: .seconds(10))

    /// A transport for `server` (its test names mapped to it), shut down after the test.
    private func transport(_ environment: [String: String]) -> HTTPSTransport {
        let web = HTTPSTransport(environment: environment)
        addTeardownBlock { await web.shutdown() }
        return web
    }

    private func server(_ routes: [String: LoopbackHTTPS.Route]) async throws -> LoopbackHTTPS {
        let server = try await LoopbackHTTPS(routes: routes)
        addTeardownBlock { await server.close() }
        return server
    }

    private func failure(_ web: HTTPSTransport, _ url: String, limits: WebLimits = limits) async -> WebFailure? {
        do {
            _ = try await web.fetch(WebRequest(url: url, limits: limits))
            return nil
        } catch {
            return error
        }
    }

    func testAGetReachesTheServerUnderItsNameWithTheCertificateChecked() async throws {
        let server = try await server(["/a.png": .body(Array("hello".utf8), headers: ["Cache-Control": "max-age=60"])])
        let web = transport(try server.environment(hosts: ["cdn.example"]))
        let answer = try await web.fetch(WebRequest(url: "https://cdn.example/a.png?size=2", accept: "image/*", limits: Self.limits))
        XCTAssertEqual(answer.body, Array("hello".utf8))
        XCTAssertEqual(answer.cacheControl, "max-age=60")
        XCTAssertEqual(server.seen, [LoopbackHTTPS.Seen(method: "GET", path: "/a.png", host: "cdn.example")])

        // Without the test CA the same server is not trusted.
        var untrusted = try server.environment(hosts: ["cdn.example"])
        untrusted["COMMENTBAR_CA_FILE"] = nil
        let refused = await failure(transport(untrusted), "https://cdn.example/a.png")
        XCTAssertTrue(refused?.description.contains("TLS") ?? false, "\(String(describing: refused))")
    }

    func testStatusesRedirectsAndTheByteCap() async throws {
        let server = try await server([
            "/gone": .body([], status: 404),
            "/busy": .body([], status: 429),
            "/moved": .redirect(to: "https://api.example/here"),
            "/here": .body(Array("{}".utf8)),
            "/plain": .redirect(to: "http://api.example/here"),
            "/loop": .redirect(to: "/loop"),
            "/big": .body(Array(repeating: 0x20, count: (64 << 10) + 1)),
        ])
        let web = transport(try server.environment(hosts: ["cdn.example", "api.example"]))
        let gone = await failure(web, "https://cdn.example/gone?token=secret")
        XCTAssertEqual(gone, WebFailure("https://cdn.example/gone: HTTP 404", status: 404), "the query is never shown")
        let busy = await failure(web, "https://cdn.example/busy")
        XCTAssertEqual(busy?.status, 429)
        let moved = try await web.fetch(WebRequest(url: "https://cdn.example/moved", limits: Self.limits))
        XCTAssertEqual(moved.body, Array("{}".utf8))
        XCTAssertEqual(server.seen.suffix(2).map(\.host), ["cdn.example", "api.example"], "the redirect went to its own host")
        let plain = await failure(web, "https://cdn.example/plain")
        XCTAssertEqual(plain?.description, "https://cdn.example/plain: redirected somewhere that is not https://")
        let loop = await failure(web, "https://cdn.example/loop")
        XCTAssertEqual(loop?.description, "https://cdn.example/loop: more than 3 redirects")
        let big = await failure(web, "https://cdn.example/big")
        XCTAssertEqual(big?.description, "https://cdn.example/big: 65537 bytes is more than 64 KiB")
        let file = await failure(web, "file:///etc/passwd")
        XCTAssertEqual(file?.description, "not an https:// URL: file:///etc/passwd")
    }

    /// Issue 28: a rule with an empty HOST (`:443:127.0.0.1:PORT`) exempts every host from the
    /// address policy only because it really sends the connection to its address.
    func testAnEmptyHostRuleReallySendsTheConnectionWhereItSays() async throws {
        let server = try await server(["/x": .body(Array("here".utf8))])
        let web = transport(["COMMENTBAR_CA_FILE": try TestCA.shared().authority,
                             "COMMENTBAR_CONNECT_TO": ":443:127.0.0.1:\(server.port)"])
        let answer = try await web.fetch(WebRequest(url: "https://b.example/x", limits: Self.limits))
        XCTAssertEqual(answer.body, Array("here".utf8))
        XCTAssertEqual(server.seen.last?.host, "b.example")
        // A rule that changes only the port is no exemption: the name is still checked.
        let portOnly = try ConnectTo.parse(":443::8443")
        let target = try HTTPTarget(url: "https://localhost/x", connectTo: portOnly)
        XCTAssertEqual(target.route(streamerServer: nil, connectTo: portOnly), .checked)
        XCTAssertEqual(target.requestURL, "https://localhost:8443/x")
        XCTAssertEqual(target.hostHeader, "localhost")
        let refused = await failure(transport(["COMMENTBAR_CONNECT_TO": ":443::8443"]), "https://localhost/x")
        XCTAssertEqual(refused?.description, "https://localhost/x: refused: localhost: a name for this machine")
    }

    /// Issue 28: the streamer's typed server is an allowance of the requests that carry it, not of
    /// the process: another request to the same host is checked as usual.
    func testTheStreamersServerIsReachedOnlyByTheRequestsThatCarryIt() async throws {
        let server = try await server(["/api": .body(Array("ok".utf8))])
        let web = transport(["COMMENTBAR_CA_FILE": try TestCA.shared().authority])
        let url = "https://127.0.0.1:\(server.port)/api"
        let typed = StreamerServer(url: url)
        let answer = try await web.fetch(WebRequest(url: url, limits: Self.limits, streamerServer: typed))
        XCTAssertEqual(answer.body, Array("ok".utf8))
        let other = await failure(web, url)
        XCTAssertEqual(other?.description, "\(url): refused: 127.0.0.1: an IP address, not a host name")
        // Only that host and port: not another port of it, not another host.
        let none = ConnectTo()
        let elsewhere = try HTTPTarget(url: "https://127.0.0.1:\(server.port + 1)/api", connectTo: none)
        XCTAssertEqual(elsewhere.route(streamerServer: typed, connectTo: none), .checked)
        XCTAssertEqual(try HTTPTarget(url: url, connectTo: none).route(streamerServer: typed, connectTo: none), .byName)
        XCTAssertEqual(try HTTPTarget(url: "https://localhost/", connectTo: none).route(streamerServer: typed, connectTo: none),
                       .checked)
    }

    /// Issue 28: the address policy checks, and the pin is keyed by, the host exactly as
    /// AsyncHTTPClient reads it from the URL it is given.
    func testTheCheckedHostIsTheOneAsyncHTTPClientConnectsTo() throws {
        let rules = try ConnectTo.parse("cdn.example:443::8443")
        for url in ["https://cdn.example/a", "https://CDN.Example/a", "https://cdn.example:443/a", "https://cdn.example./a",
                    "https://xn--r8jz45g.example/a", "https://[2606:4700::1111]/a", "https://cdn.example:8080/a?b=c#d",
                    "https://1.2.3.4/a"] {
            let target = try HTTPTarget(url: url, connectTo: rules)
            let client = try HTTPClient.Request(url: target.requestURL)
            XCTAssertEqual(target.connectionKey, client.host, url)
            XCTAssertEqual(target.connectionKey.trimmingCharacters(in: ["[", "]"]), target.host, url)
        }
    }
}
