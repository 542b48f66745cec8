// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import FoundationEssentials
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Testing

/// The control server on loopback, through AsyncHTTPClient and NIO's WebSocket client.
@Suite struct ControlServerTests {
    @Test func withoutTheTokenEveryPathIs401() async throws {
        let server = try await TestSupport.startServer()
        for path in ["/", "/control.js", "/api/comments", "/api/state", "/api/events"] {
            let response = try await TestSupport.request(server.port, path, bearer: false)
            #expect(response.status == .unauthorized, "\(path)")
            #expect(!response.body.contains(TestSupport.token))
        }
        let wrong = try await TestSupport.request(server.port, "/api/state", headers: [("Cookie", "commentbar_token=00")],
                                                  bearer: false)
        #expect(wrong.status == .unauthorized)
        let post = try await TestSupport.request(server.port, "/api/pin", method: .POST, body: Array(#"{"id":"x"}"#.utf8),
                                                 bearer: false)
        #expect(post.status == .unauthorized)
        await server.stop()
    }

    @Test func aForeignHostIsRefusedEvenWithTheToken() async throws {
        let server = try await TestSupport.startServer()
        for host in ["evil.example:\(server.port)", "127.0.0.1", "localhost:1"] {
            let response = try await TestSupport.request(server.port, "/api/state", host: host)
            #expect(response.status == .forbidden, "\(host)")
        }
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "[::1]:\(server.port)"] {
            let response = try await TestSupport.request(server.port, "/api/state", host: host)
            #expect(response.status == .ok, "\(host)")
        }
        await server.stop()
    }

    @Test func answersCarryTheSecurityHeadersAndNoCORS() async throws {
        let server = try await TestSupport.startServer()
        let page = try await TestSupport.request(server.port, "/", headers: [("Origin", "http://127.0.0.1:\(server.port)")])
        #expect(page.status == .ok)
        #expect(page.body.contains("<script src=\"/control.js\""))
        let policy = page.headers.first(name: "Content-Security-Policy") ?? ""
        #expect(policy.contains("default-src 'self'") && policy.contains("connect-src 'self' ws://127.0.0.1:\(server.port)"))
        #expect(page.headers.first(name: "X-Frame-Options") == "DENY")
        #expect(!page.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        let foreign = try await TestSupport.request(server.port, "/api/state", headers: [("Origin", "http://evil.example")])
        #expect(foreign.status == .forbidden)
        await server.stop()
    }

    @Test func theTokenInTheAddressBecomesAStrictCookieOnce() async throws {
        let server = try await TestSupport.startServer()
        let opened = try await TestSupport.request(server.port, "/?token=\(TestSupport.token)", bearer: false)
        #expect(opened.status == .seeOther)
        #expect(opened.headers.first(name: "Location") == "/")
        let cookie = try #require(opened.headers.first(name: "Set-Cookie"))
        #expect(cookie.contains("SameSite=Strict") && cookie.contains("HttpOnly") && cookie.contains("Path=/"))
        let withCookie = try await TestSupport.request(
            server.port, "/", headers: [("Cookie", String(cookie.prefix { $0 != ";" }))], bearer: false)
        #expect(withCookie.status == .ok)
        await server.stop()
    }

    @Test func aWebSocketFromAnotherOriginIsRefused() async throws {
        let server = try await TestSupport.startServer()
        guard case .refused = try await EventClient.connect(port: server.port, origin: "http://evil.example") else {
            Issue.record("a WebSocket from another origin was opened")
            return
        }
        guard case .refused = try await EventClient.connect(port: server.port, bearer: false) else {
            Issue.record("a WebSocket without the token was opened")
            return
        }
        guard case .opened(let client) = try await EventClient.connect(port: server.port,
                                                                      origin: "http://127.0.0.1:\(server.port)") else {
            Issue.record("the page's own WebSocket was refused")
            return
        }
        try await client.channel.executeThenClose { _, _ in }
        await server.stop()
    }

    @Test func listensOnLoopbackOnly() async throws {
        let server = try await TestSupport.startServer()
        #expect(server.addresses.allSatisfy { $0 == "127.0.0.1" || $0 == "::1" })
        // The kernel's own table: every socket on this port is bound to a loopback address.
        let port = TestSupport.hex4(server.port)
        let listening = Self.listeningAddresses(port: port)
        #expect(!listening.isEmpty)
        #expect(listening.allSatisfy { $0 == "0100007F" || $0 == "00000000000000000000000001000000" }, "\(listening)")
        // And this machine's other addresses do not answer on it.
        for address in Self.nonLoopbackIPv4() {
            #expect(!Self.connects(to: address, port: server.port), "\(address) answered")
        }
        await server.stop()
    }

    @Test func aClientReceivesEveryCommentInOrder() async throws {
        let server = try await TestSupport.startServer()
        guard case .opened(let client) = try await EventClient.connect(port: server.port) else {
            Issue.record("could not connect")
            return
        }
        #expect(await TestSupport.eventually { await server.counts().clients == 1 })
        let count = 1000
        let receiving = Task { try await client.events(count: count) }
        for index in 0..<count { TestSupport.publishComment(server, TestSupport.comment("m\(index)", text: "コメント \(index)")) }
        let (events, closeCode) = try await receiving.value
        #expect(closeCode == nil)
        #expect(events.map(\.seq) == Array(1...count))
        let texts = events.compactMap { event -> String? in
            if case .comment(let comment) = event.body { return comment.text }
            return nil
        }
        #expect(texts == (0..<count).map { "コメント \($0)" })
        await server.stop()
    }

    @Test func pollingGivesTheCommentsAfterASequenceNumber() async throws {
        let server = try await TestSupport.startServer()
        for index in 0..<5 { TestSupport.publishComment(server, TestSupport.comment("m\(index)")) }
        server.publish(.delete(.init(id: "m1", platform: "twitch", channel: "streamer")))
        struct Page: Decodable { var comments: [ControlEvent] }
        var page = Page(comments: [])
        #expect(await TestSupport.eventually {
            guard let response = try? await TestSupport.request(server.port, "/api/comments?since=2&limit=10"),
                  let decoded = try? JSONDecoder().decode(Page.self, from: Data(response.body.utf8)) else { return false }
            page = decoded
            return decoded.comments.count == 3
        })
        // m1 was deleted by moderation: it is not served again; 3, 4, 5 came after event 2.
        #expect(page.comments.map(\.seq) == [3, 4, 5])
        let bad = try await TestSupport.request(server.port, "/api/comments?limit=-1")
        #expect(bad.status == .badRequest)
        await server.stop()
    }

    @Test func commandsReachTheBackend() async throws {
        let backend = RecordingBackend(pinUntil: 1234)
        let server = try await TestSupport.startServer(backend: backend)
        TestSupport.publishComment(server, TestSupport.comment("m1", user: "bob", text: "pin me"))
        #expect(await TestSupport.eventually {
            (try? await TestSupport.request(server.port, "/api/pin", method: .POST, body: Array(#"{"id":"m1"}"#.utf8)))?
                .status == .ok
        })
        #expect(backend.calls.withLock { $0.pinned.map(\.text) } == ["pin me"])
        let unknown = try await TestSupport.request(server.port, "/api/pin", method: .POST, body: Array(#"{"id":"zz"}"#.utf8))
        #expect(unknown.status == .notFound)
        let unpin = try await TestSupport.request(server.port, "/api/unpin", method: .POST, body: Array(#"{"id":"m1"}"#.utf8))
        #expect(unpin.status == .ok)
        #expect(backend.calls.withLock { $0.unpinned } == ["m1"])

        let viewer = #"{"platform":"twitch","channel":"streamer","user":"bob","nickname":"ボブ","hidden":true}"#
        let saved = try await TestSupport.request(server.port, "/api/viewer", method: .POST, body: Array(viewer.utf8))
        #expect(saved.status == .ok)
        #expect(backend.calls.withLock { $0.viewers } == [ViewerChoice(platform: "twitch", channel: "streamer", user: "bob",
                                                                        nickname: "ボブ", hidden: true)])
        for bad in [#"{"platform":"twitch","channel":"streamer","user":"bob"}"#,
                    #"{"platform":"twitch","channel":"streamer","user":"bob","colour":"red"}"#,
                    #"{"platform":"twitch","channel":"streamer","user":"bob","nickname":"12345678901234567"}"#,
                    #"{"platform":"twitch","user":"bob","hidden":true}"#, "not json"] {
            let refused = try await TestSupport.request(server.port, "/api/viewer", method: .POST, body: Array(bad.utf8))
            #expect(refused.status == .badRequest, "\(bad)")
        }
        #expect(backend.calls.withLock { $0.viewers.count } == 1)
        let notJSON = try await TestSupport.request(server.port, "/api/speech/skip", method: .POST,
                                                    headers: [("Content-Type", "text/plain")], body: Array("{}".utf8))
        #expect(notJSON.status == .unsupportedMediaType)
        let skip = try await TestSupport.request(server.port, "/api/speech/skip", method: .POST, body: Array("{}".utf8))
        #expect(skip.status == .ok)
        let pause = try await TestSupport.request(server.port, "/api/speech/pause", method: .POST,
                                                  body: Array(#"{"paused":true}"#.utf8))
        #expect(pause.body.contains(#""paused":true"#))
        #expect(backend.calls.withLock { ($0.skips, $0.paused) } == (1, true))
        await server.stop()
    }

    @Test func viewerChoicesWithoutAMemoryAre503() async throws {
        let server = try await TestSupport.startServer(backend: RecordingBackend(viewerOutcome: .unavailable("no memory")))
        let body = #"{"platform":"twitch","channel":"c","user":"u","hidden":true}"#
        let response = try await TestSupport.request(server.port, "/api/viewer", method: .POST, body: Array(body.utf8))
        #expect(response.status == .serviceUnavailable)
        #expect(response.body.contains("no memory"))
        await server.stop()
    }

    @Test func aHugeBodyIs413() async throws {
        let server = try await TestSupport.startServer()
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        do {
            let response = try await TestSupport.request(server.port, "/api/viewer", method: .POST, body: huge)
            #expect(response.status == .payloadTooLarge)
        } catch {
            // The server may close before the client has written all of it; it must still answer the next one.
        }
        let declared = try await TestSupport.request(server.port, "/api/pin", method: .POST,
                                                     body: Array(repeating: UInt8(ascii: " "), count: 70 * 1024))
        #expect(declared.status == .payloadTooLarge)
        let huger = String(repeating: "x", count: 40 * 1024)
        let headers = try? await TestSupport.request(server.port, "/api/state", headers: [("X-Padding", huger)])
        #expect(headers.map { $0.status.code >= 400 } ?? true)
        let after = try await TestSupport.request(server.port, "/api/state")
        #expect(after.status == .ok)
        await server.stop()
    }

    @Test func aHundredConnectionsAtOnceAreRefusedBeyondTheLimitWithoutHarm() async throws {
        let server = try await TestSupport.startServer()
        let before = TestSupport.residentKiB()
        var sockets: [Int32] = []
        for _ in 0..<100 { sockets.append(Self.openSocket(port: server.port)) }
        #expect(await TestSupport.eventually { await server.counts().refused >= 100 - ControlServer.maxConnections })
        let counts = await server.counts()
        #expect(counts.open <= ControlServer.maxConnections)
        let grown = TestSupport.residentKiB() - before
        #expect(grown < 16 * 1024, "resident memory grew by \(grown) KiB")
        for fd in sockets { close(fd) }
        #expect(await TestSupport.eventually { await server.counts().open == 0 })
        let after = try await TestSupport.request(server.port, "/api/state")
        #expect(after.status == .ok)
        await server.stop()
    }

    @Test func aStalledClientIsDroppedWhileOthersKeepReceiving() async throws {
        let server = try await TestSupport.startServer()
        guard case .opened(let stalled) = try await EventClient.connect(port: server.port, receiveBuffer: 4096),
              case .opened(let reader) = try await EventClient.connect(port: server.port) else {
            Issue.record("could not connect")
            return
        }
        #expect(await TestSupport.eventually { await server.counts().clients == 2 })
        let count = 3000
        let receiving = Task { try await reader.events(count: count) }
        let padding = String(repeating: "長いコメント", count: 100)
        // A thousand a second: the reader keeps up, the stalled client's queue fills.
        for index in 0..<count {
            TestSupport.publishComment(server, TestSupport.comment("m\(index)", text: "\(index) \(padding)"))
            if index % 10 == 9 { try await Task.sleep(for: .milliseconds(10)) }
        }
        // The stalled client (it never reads) is dropped; the reader gets every event.
        let (events, closeCode) = try await receiving.value
        #expect(closeCode == nil)
        #expect(events.count == count)
        #expect(events.last?.seq == count)
        #expect(await server.counts().dropped == 1)
        _ = stalled
        await server.stop()
    }

    @Test func aTakenPortIsSaidSo() async throws {
        let server = try await TestSupport.startServer()
        await #expect(throws: ControlServer.StartError.portTaken(server.port)) {
            _ = try await ControlServer.start(port: server.port, token: TestSupport.token, backend: RecordingBackend(),
                                              log: TestSupport.log)
        }
        await server.stop()
    }

    // MARK: - Sockets

    static func listeningAddresses(port: String) -> [String] {
        var found: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let file = fopen(table, "r") else { continue }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 512)
            while fgets(&line, Int32(line.count), file) != nil {
                let fields = TestSupport.text(line).split(separator: " ")
                // local_address is ADDR:PORT in hex; state 0A is LISTEN.
                guard fields.count > 3, fields[3] == "0A" else { continue }
                let local = fields[1].split(separator: ":")
                if local.count == 2, local[1] == port { found.append(String(local[0])) }
            }
        }
        return found
    }

    static func nonLoopbackIPv4() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                               NI_NUMERICHOST) == 0 {
                    let text = TestSupport.text(host)
                    if !text.hasPrefix("127.") { found.append(text) }
                }
            }
            entry = current.pointee.ifa_next
        }
        return found
    }

    static func openSocket(port: Int, host: String = "127.0.0.1") -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }

    static func connects(to host: String, port: Int) -> Bool {
        let fd = openSocket(port: port, host: host)
        defer { close(fd) }
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
        }
    }
}
