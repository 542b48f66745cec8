// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarCore
import CommentBarNet
import CommentBarTestSupport
import FoundationEssentials
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Testing

/// The control server on loopback, for what needs a real socket: the WebSocket upgrade, Host and
/// Origin as they come over the wire, the listening sockets, backpressure, connection slots and
/// deadlines, the token changing under open connections. The routes themselves are tested in
/// process (ControlRoutesTests).
@Suite struct ControlServerTests {
    @Test func hostAndOriginOverTheWire() async throws {
        let server = try await TestSupport.startServer()
        #expect(try await TestSupport.request(server.port, "/api/state").status == .ok)
        #expect(try await TestSupport.request(server.port, "/api/state", host: "evil.example:\(server.port)").status == .forbidden)
        #expect(try await TestSupport.request(server.port, "/api/state", headers: [("Origin", "http://evil.example")]).status
                == .forbidden)
        #expect(try await TestSupport.request(server.port, "/api/state", bearer: false).status == .unauthorized)
        await server.stop()
    }

    @Test func aWebSocketFromAnotherOriginOrWithoutACredentialIsRefused() async throws {
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

    /// The page's way in, over the wire: the link's code becomes a cookie, and the page's
    /// WebSocket under the page's path is opened with it alone.
    @Test func thePagesLinkGivesACookieThatOpensTheEventSocket() async throws {
        let server = try await TestSupport.startServer()
        let link = server.pageLink()
        let path = String(link.dropFirst("http://127.0.0.1:\(server.port)".count))
        #expect(link.hasPrefix("http://127.0.0.1:\(server.port)/p/") && !link.contains(TestSupport.token))
        let opened = try await TestSupport.request(server.port, path, bearer: false)
        #expect(opened.status == .seeOther)
        let cookie = String(try #require(opened.headers.first(name: "Set-Cookie")).prefix { $0 != ";" })
        let page = try #require(opened.headers.first(name: "Location"))
        #expect(try await TestSupport.request(server.port, path, bearer: false).status == .unauthorized, "used once")
        guard case .opened(let client) = try await EventClient.connect(
            port: server.port, path: page + "api/events", origin: "http://127.0.0.1:\(server.port)", bearer: false,
            headers: [("Cookie", cookie)]) else {
            Issue.record("the page's WebSocket was refused")
            return
        }
        try await client.channel.executeThenClose { _, _ in }
        await server.stop()
    }

    @Test func listensOnLoopbackOnlyOnePortForBoth() async throws {
        let server = try await TestSupport.startServer()
        #expect(server.port >= 1024)
        #expect(server.addresses.allSatisfy { $0 == "127.0.0.1" || $0 == "::1" })
        // The kernel's own table: every socket on this port is bound to a loopback address.
        let listening = Self.listeningAddresses(port: TestSupport.hex4(server.port))
        #expect(listening.count == server.addresses.count, "\(listening)")
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

    /// Tools whose requests wait on the memory (a locked log) keep their connections: a request
    /// that showed its token is proven at once, not when its answer is written, so more waiting
    /// requests than the unproven slots are never closed unanswered by the next connection.
    @Test func requestsWaitingOnTheMemoryKeepTheirConnections() async throws {
        let gate = Gate()
        let backend = RecordingBackend(viewerGate: gate)
        let server = try await TestSupport.startServer(backend: backend)
        let options = ControlServer.Options()
        let waiting = options.maxUnproven + 4
        let body = #"{"platform":"twitch","channel":"c","user":"u","hidden":true}"#
        let request = "POST /api/viewer HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(TestSupport.token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        var sockets: [Int32] = []
        for sent in 1...waiting {
            let fd = Self.openSocket(port: server.port)
            _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            sockets.append(fd)
            #expect(await TestSupport.eventually { backend.calls.withLock { $0.viewers.count } == sent })
        }
        let counts = await server.counts()
        #expect(counts.evicted == 0, "\(counts)")
        #expect(sockets.allSatisfy { !Self.peerClosed($0) })
        gate.open()
        for fd in sockets {
            // Never a blocking read: the cooperative pool's threads are few and shared by every test.
            #expect(await TestSupport.eventually { Self.readable(fd) })
            var answer = [UInt8](repeating: 0, count: 64)
            let got = recv(fd, &answer, answer.count, Int32(MSG_DONTWAIT))
            #expect(got > 0 && String(decoding: answer.prefix(max(got, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            close(fd)
        }
        await server.stop()
    }

    /// Slowloris (issue 37): 32 connections each sending one byte of a request head every two
    /// seconds (and connecting again when closed) while 16 event clients hold their sockets: a
    /// real client still gets its answer within 2 s, and no event client is pushed out.
    @Test func tricklingConnectionsNeverKeepARealClientOut() async throws {
        let server = try await TestSupport.startServer()
        var clients: [EventClient] = []
        for _ in 0..<16 {
            guard case .opened(let client) = try await EventClient.connect(port: server.port) else {
                Issue.record("an event client was refused")
                return
            }
            clients.append(client)
        }
        let head = Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: ".utf8)
        let port = server.port
        let trickler = Task.detached {
            var sockets = (0..<32).map { _ in Self.openSocket(port: port) }
            var sent = 0
            while !Task.isCancelled {
                for index in sockets.indices {
                    var byte = head[sent % head.count]
                    if send(sockets[index], &byte, 1, Int32(MSG_NOSIGNAL)) != 1 {
                        close(sockets[index])
                        sockets[index] = Self.openSocket(port: port)
                    }
                }
                sent += 1
                try? await Task.sleep(for: .seconds(2))
            }
            for fd in sockets { close(fd) }
        }
        #expect(await TestSupport.eventually { await server.counts().evicted > 0 })
        try await Task.sleep(for: .seconds(3))
        for _ in 0..<3 {
            let started = ContinuousClock.now
            let answer = try await TestSupport.request(server.port, "/api/state")
            let took = ContinuousClock.now - started
            #expect(answer.status == .ok)
            #expect(took < .seconds(2), "the real client waited \(took)")
            try await Task.sleep(for: .seconds(1))
        }
        #expect(await server.counts().clients == 16, "an event client was pushed out")
        trickler.cancel()
        await trickler.value
        for client in clients { try await client.channel.executeThenClose { _, _ in } }
        await server.stop()
    }

    /// A whole request must come within the deadline of its first byte: a byte every 200 ms
    /// resets the idle timer every time, and the connection is still closed.
    @Test func aTrickledRequestIsCutOffAtItsDeadline() async throws {
        var options = ControlServer.Options()
        options.requestDeadline = .seconds(1)
        let server = try await TestSupport.startServer(options: options)
        let fd = Self.openSocket(port: server.port)
        defer { close(fd) }
        let started = ContinuousClock.now
        var closedAfter: Duration?
        for byte in Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: \(String(repeating: "a", count: 100))".utf8) {
            var byte = byte
            if send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) != 1 || Self.peerClosed(fd) {
                closedAfter = ContinuousClock.now - started
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let after = try #require(closedAfter, "the trickled request was never cut off")
        #expect(after >= .milliseconds(900) && after < .seconds(5), "\(after)")
        // A request that comes whole is answered as ever.
        #expect(try await TestSupport.request(server.port, "/api/state").status == .ok)
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
        let received = ReceivedCount()
        // The reader keeps only what it checks (3,000 events of 1.8 KB otherwise).
        let receiving = Task {
            var (taken, lastSeq) = (0, 0)
            let closeCode = try await reader.read(count: count, received: received) { event in
                taken += 1
                lastSeq = event.seq
            }
            return (taken, lastSeq, closeCode)
        }
        let padding = String(repeating: "長いコメント", count: 100)
        // The reader is never more than a quarter of a client's queue behind (however loaded the
        // machine is; make check runs other tests beside this one), while the stalled client's
        // queue fills: it takes nothing after its small receive buffer.
        let behind = PushSocket.maxQueuedMessages / 4
        // A reader that stopped (closed, or an event it could not decode) fails the test below
        // rather than holding the sender for ever.
        let deadline = ContinuousClock.now + .seconds(60)
        sending: for index in 0..<count {
            while index - received.value.load(ordering: .acquiring) > behind {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the reader stopped taking events after \(received.value.load(ordering: .acquiring))")
                    try? await reader.channel.channel.close()
                    break sending
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            TestSupport.publishComment(server, TestSupport.comment("m\(index)", text: "\(index) \(padding)"))
        }
        // The stalled client (it never reads) is dropped; the reader gets every event.
        let (taken, lastSeq, closeCode) = try await receiving.value
        #expect(closeCode == nil)
        #expect(taken == count)
        #expect(lastSeq == count)
        #expect(await server.counts().dropped == 1)
        _ = stalled
        await server.stop()
    }

    /// `commentbar control-url --rotate`: the old token stops working at once, every page's
    /// session ends, and every event client is closed with 4001 (the page asks to be opened again).
    @Test func aNewTokenEndsEverySessionAndClosesEveryEventClient() async throws {
        let folder = TemporaryFolder(prefix: "control-rotate")
        let log = CapturedLog()
        var options = ControlServer.Options()
        options.tokenCheck = .milliseconds(100)
        let server = try await TestSupport.startServer(token: try TokenWatch(folder: folder.path, log: log.logger),
                                                       options: options, log: log.logger)
        let old = try ControlToken.load(folder: folder.path).token
        let link = String(server.pageLink().dropFirst("http://127.0.0.1:\(server.port)".count))
        let opened = try await TestSupport.request(server.port, link, bearer: false)
        let cookie = String(try #require(opened.headers.first(name: "Set-Cookie")).prefix { $0 != ";" })
        let page = try #require(opened.headers.first(name: "Location"))
        guard case .opened(let client) = try await EventClient.connect(port: server.port, token: old) else {
            Issue.record("could not connect")
            return
        }
        #expect(await TestSupport.eventually { await server.counts().clients == 1 })
        let receiving = Task { try await client.events(count: 1) }
        let new = try ControlToken.rotate(folder: folder.path)
        let (events, closeCode) = try await receiving.value
        #expect(events.isEmpty && closeCode == ControlServer.tokenChangedCode)
        let bearer = { (token: String) in [("Authorization", "Bearer \(token)")] }
        #expect(try await TestSupport.request(server.port, "/api/state", headers: bearer(old), bearer: false).status == .unauthorized)
        #expect(try await TestSupport.request(server.port, "/api/state", headers: bearer(new), bearer: false).status == .ok)
        #expect(try await TestSupport.request(server.port, page + "api/state", headers: [("Cookie", cookie)], bearer: false)
                .status == .unauthorized)
        #expect(log.messages.contains { $0.contains("the control token changed") })
        await server.stop()
    }

    @Test func aTakenPortIsSaidSo() async throws {
        let server = try await TestSupport.startServer()
        await #expect(throws: ControlServer.StartError.portTaken(server.port)) {
            _ = try await ControlServer.start(port: server.port, token: TokenWatch(fixed: TestSupport.token),
                                              backend: RecordingBackend(), log: TestSupport.log)
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

    /// Whether `fd` has something to read (or its end), without waiting.
    static func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// Whether the peer closed `fd` (a read without waiting sees its end).
    static func peerClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
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
