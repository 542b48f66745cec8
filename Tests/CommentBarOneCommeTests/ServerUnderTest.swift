// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
@testable import CommentBarOneComme
import CommentBarTestSupport
import Foundation
import Glibc
import Logging
import NIOCore
import NIOHTTP1

/// A test with a real OneComme server on loopback, and the clients it uses on it: HTTP requests
/// (any method, Host and headers) and raw sockets (for what no HTTP client would send).
protocol ServerUnderTest: AnyObject {
    var server: OneCommeServer! { get }
}

extension ServerUnderTest {
    var port: Int { server.port }

    /// A server on 127.0.0.1 at a port free now (the reservation ends at once: the server checks
    /// the Host against its own port), its user templates `folder/templates` holding `mine/`.
    static func startServer(in folder: TemporaryFolder) async throws -> OneCommeServer {
        try FileManager.default.createDirectory(atPath: folder.file("templates/mine"), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: folder.file("templates/mine/index.html"), contents: Data("<p>mine</p>".utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return try await OneCommeServer.start(port: ReservedPort().port, templates: folder.file("templates"),
                                              log: Logger(label: "test"), hosts: ["127.0.0.1"])
    }

    func request(_ path: String, method: HTTPMethod = .GET, host: String? = nil, headers: [(String, String)] = [],
                 body: [UInt8]? = nil) async throws -> (status: HTTPResponseStatus, body: String, headers: HTTPHeaders) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers.add(name: "Host", value: host ?? "127.0.0.1:\(port)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            return (response.status, String(buffer: bytes), response.headers)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// A plain TCP connection to the server (a receive buffer of `receiveBuffer` bytes when given), or -1.
    func connectRaw(receiveBuffer: Int32? = nil) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected == 0 ? fd : -1
    }

    func sendRaw(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// A `/sub` WebSocket opened by hand: the upgrade request, with `origin` when given (a browser
    /// always sends one).
    func openSubscription(origin: String?) -> Int32 {
        let fd = connectRaw()
        sendRaw(fd, "GET /sub?p=comments HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                    + (origin.map { "Origin: \($0)\r\n" } ?? "")
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return fd
    }

    typealias Counts = (open: Int, clients: Int, refused: Int, evicted: Int, dropped: Int)

    /// Waits (at most 10 s) until `condition` holds for the server's counts.
    func waitForCounts(_ condition: (Counts) -> Bool) async throws -> Counts {
        let deadline = ContinuousClock.now + .seconds(10)
        var counts = await server.counts()
        while !condition(counts), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            counts = await server.counts()
        }
        return counts
    }
}
