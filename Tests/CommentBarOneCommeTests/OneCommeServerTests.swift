// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import CommentBarCore
@testable import CommentBarOneComme
import CommentBarTestSupport
import Foundation
import Glibc
import Logging
import NIOCore
import NIOHTTP1
import XCTest

/// The server over real loopback HTTP: read-only (every method but GET refused, no body taken, no
/// control route), the Host checked (DNS rebinding), paths kept inside their folders, the API
/// answering with what the session told it.
final class OneCommeServerTests: XCTestCase, ServerUnderTest {
    var folder: TemporaryFolder!
    var server: OneCommeServer!

    override func setUp() async throws {
        folder = TemporaryFolder()
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.file("secret.txt"), contents: Data("secret".utf8)))
        server = try await Self.startServer(in: folder)
    }

    override func tearDown() async throws {
        await server.stop()
    }

    func testTemplatesAndOriginFilesAreServed() async throws {
        let sdk = try await request("/templates/custom/__origin/js/onesdk.js")
        XCTAssertEqual(sdk.status, .ok)
        XCTAssertTrue(sdk.body.contains("window.OneSDK"))
        let presetPage = try await request("/templates/preset/bar/")
        XCTAssertEqual(presetPage.status, .ok)
        let mine = try await request("/templates/custom/mine/")
        XCTAssertEqual(mine.status, .ok)
        XCTAssertEqual(mine.body, "<p>mine</p>")
        let withoutSlash = try await request("/templates/custom/mine")
        XCTAssertEqual(withoutSlash.status, .movedPermanently)
        let index = try await request("/")
        XCTAssertTrue(index.body.contains("/templates/custom/mine/") && index.body.contains("/templates/preset/bar/"), index.body)
    }

    func testAnotherHostNameIsRefused() async throws {
        // DNS rebinding: a site's name pointed at 127.0.0.1 gets nothing, not even the chat.
        for host in ["evil.example:\(port)", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:\(port)"] {
            let api = try await request("/api/comments", host: host)
            XCTAssertEqual(api.status, .forbidden, host)
            let template = try await request("/templates/preset/bar/", host: host)
            XCTAssertEqual(template.status, .forbidden, host)
        }
        let byLocalhost = try await request("/api/comments", host: "localhost:\(port)")
        XCTAssertEqual(byLocalhost.status, .ok)
    }

    func testNothingChangesAnything() async throws {
        for method in [HTTPMethod.POST, .PUT, .DELETE, .PATCH] {
            for path in ["/api/comments", "/api/pin", "/api/events", "/api/viewer", "/templates/custom/mine/index.html"] {
                let answer = try await request(path, method: method, body: Array(#"{"id":"0/x"}"#.utf8))
                XCTAssertEqual(answer.status, .methodNotAllowed, "\(method) \(path)")
            }
        }
        for path in ["/api/pin", "/api/unpin", "/api/events", "/api/viewer", "/api/speech", "/api/search?q=a"] {
            let control = try await request(path)
            XCTAssertEqual(control.status, .notFound, path)
        }
    }

    func testPathsStayInTheirFolders() async throws {
        for path in ["/templates/custom/../../secret.txt", "/templates/custom/%2e%2e/secret.txt",
                     "/templates/custom/mine/%2e%2e/%2e%2e/secret.txt", "/templates/custom/mine/..%2f..%2fsecret.txt"] {
            let answer = try await request(path)
            XCTAssertTrue([.badRequest, .notFound].contains(answer.status), "\(path): \(answer.status)")
            XCTAssertFalse(answer.body.contains("secret\n") || answer.body == "secret", path)
        }
        XCTAssertEqual(symlink(folder.file("secret.txt"), folder.file("templates/mine/leak.txt")), 0)
        let leak = try await request("/templates/custom/mine/leak.txt")
        XCTAssertEqual(leak.status, .forbidden)
        XCTAssertNotEqual(leak.body, "secret")
    }

    func testTheAPIAnswersWhatTheSessionTold() async throws {
        let stream = OneCommeStream(platform: "twitch", channel: "streamer", name: "Twitch",
                                    colour: RGBColor(red: 0x91, green: 0x46, blue: 0xff))
        server.publish(.services([OneCommeHook.service(stream)]))
        for number in 0..<105 {
            server.publish(.comment(OneCommeComment(ChatLine(id: "m\(number)", user: "u\(number)", text: "t\(number)"),
                                                    stream: stream, now: 1)))
        }
        server.publish(.deleted(ids: ["m104"]))
        let comments = try await request("/api/comments")
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(comments.body.utf8)) as? [[String: Any]])
        let ids = list.compactMap { ($0["data"] as? [String: Any])?["id"] as? String }
        XCTAssertEqual(ids.count, 99)
        XCTAssertEqual(ids.first, "m5")
        XCTAssertEqual(ids.last, "m103")
        let pinned = try await request("/api/comments/pinned")
        XCTAssertEqual(pinned.body, "null")
        let services = try await request("/api/services")
        XCTAssertTrue(services.body.contains("\"\(stream.connectionID)\""), services.body)
    }

    /// The 参加型 queue as OneComme serves its orders (OneSDK 7.0.0 `src/types/Order.ts` 3-19):
    /// every field of `OrderItem`, playing first, and read-only like the rest.
    func testTheQueueIsServedAsOneCommesOrders() async throws {
        let stream = OneCommeStream(platform: "youtube", channel: "UCabc", name: "YouTube 1",
                                    colour: RGBColor(red: 255, green: 0, blue: 0))
        let playing = OneCommeOrder(platform: "youtube", channel: "UCabc", user: "uc1", name: "Aki", played: 1, playing: true)
        let waiting = OneCommeOrder(platform: "twitch", channel: "chan", user: "bob", name: "Bob", played: 0, playing: false)
        server.publish(.orders([OneCommeOrderItem(playing, stream: stream, joined: 1_700_000_000),
                                OneCommeOrderItem(waiting, stream: nil, joined: 1_700_000_001)]))
        let answer = try await request("/api/orders")
        XCTAssertEqual(answer.status, .ok)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [[String: Any]], answer.body)
        XCTAssertEqual(list.count, 2)
        let orderItemFields: Set = ["id", "commentId", "service", "serviceName", "username", "profileImage", "timestamp",
                                    "comment", "count", "completed", "playing", "anonymity"]
        XCTAssertEqual(Set(list[0].keys), orderItemFields)
        XCTAssertEqual(list.map { $0["id"] as? String }, ["uc1", "bob"])
        XCTAssertEqual(list.map { $0["playing"] as? Bool }, [true, false])
        XCTAssertEqual(list.map { $0["service"] as? String }, ["youtube", "twitch"])
        XCTAssertEqual(list.map { $0["serviceName"] as? String }, ["YouTube 1", "twitch"])
        XCTAssertEqual(list[0]["count"] as? Int, 1)
        XCTAssertEqual(list[0]["username"] as? String, "Aki")
        let cancel = try await request("/api/orders/uc1", method: .DELETE)
        XCTAssertEqual(cancel.status, .methodNotAllowed)
        let after = try await request("/api/orders")
        let listAfter = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(after.body.utf8)) as? [[String: Any]])
        XCTAssertEqual(listAfter.map { $0["id"] as? String }, ["uc1", "bob"], "a refused DELETE changed nothing")
    }

    func testVueIsServedFromItsFileWhenThereIsOne() async throws {
        let vue = try await request("/templates/custom/__origin/js/vue.min.js")
        if server.vuePath == nil {
            XCTAssertEqual(vue.status, .notFound)
            XCTAssertTrue(vue.body.contains("make deps"), vue.body)
        } else {
            XCTAssertEqual(vue.status, .ok)
            XCTAssertTrue(vue.body.contains("createApp"))
        }
    }

    func testAPageThatNeverReadsIsClosed() async throws {
        let fd = connectRaw(receiveBuffer: 4096)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        sendRaw(fd, "GET /sub?p=comments HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let subscribed = try await waitForCounts { $0.clients == 1 }
        XCTAssertEqual(subscribed.clients, 1)
        // Far more than its queue, the socket's buffers and the page's together; it reads none of it.
        let stream = OneCommeStream(platform: "twitch", channel: "streamer", name: "Twitch",
                                    colour: RGBColor(red: 0x91, green: 0x46, blue: 0xff))
        let text = String(repeating: "ラーメン", count: 300)
        for number in 0..<3000 {
            server.publish(.comment(OneCommeComment(ChatLine(id: "n\(number)", user: "u", text: text), stream: stream, now: 1)))
        }
        let after = try await waitForCounts { $0.dropped == 1 && $0.clients == 0 }
        XCTAssertEqual(after.dropped, 1)
        XCTAssertEqual(after.clients, 0)
        let info = try await request("/api/info")
        XCTAssertEqual(info.status, .ok)
    }

    func testAHugeRequestIsRefused() async throws {
        let fd = connectRaw()
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        sendRaw(fd, "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: \(String(repeating: "a", count: 32 * 1024))\r\n\r\n")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            answer += chunk[0..<count]
        }
        // Refused (an error status, or the connection closed unanswered), never served.
        XCTAssertFalse(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        let info = try await request("/api/info")
        XCTAssertEqual(info.status, .ok)
    }

    /// A flood of idle connections never fills the server: each new one takes the place of the
    /// oldest that has shown nothing, so a real request still gets its answer.
    func testConnectionsAreBounded() async throws {
        var sockets: [Int32] = []
        for _ in 0..<100 {
            let fd = connectRaw()
            XCTAssertGreaterThanOrEqual(fd, 0)
            sockets.append(fd)
        }
        let counts = try await waitForCounts { $0.evicted >= 100 - OneCommeServer.maxUnproven }
        XCTAssertLessThanOrEqual(counts.open, OneCommeServer.maxUnproven)
        XCTAssertEqual(counts.refused, 0)
        let during = try await request("/api/info")
        XCTAssertEqual(during.status, .ok)
        for fd in sockets { close(fd) }
    }
}
