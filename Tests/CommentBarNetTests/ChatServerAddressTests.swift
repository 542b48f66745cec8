// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import Glibc
import XCTest
@testable import CommentBarNet

/// Issue 19, finding 2, for chat servers: a WebSocket address a platform's answer names (a
/// niconico watch page, SHOWROOM's or TwitCasting's API) goes through the same address
/// policy as pictures; the server the streamer typed is reached wherever it is.
final class ChatServerAddressTests: XCTestCase {
    /// A loopback listener that never accepts: whether a connection is waiting tells whether
    /// anything connected.
    final class Listener: Sendable {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ready = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard fd >= 0, ready else { throw POSIXError(.EADDRINUSE) }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }

        var someoneConnected: Bool {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, 0) == 1
        }
    }

    func testAChatServerAFeedNamesOnLoopbackIsRefusedBeforeConnecting() async throws {
        let listener = try Listener()
        for url in ["ws://127.0.0.1:\(listener.port)/chat", "ws://localhost:\(listener.port)/chat",
                    "ws://[::ffff:127.0.0.1]:\(listener.port)/", "ws://chat.localhost:\(listener.port)/"] {
            do {
                try await connectToChat(url, namedBy: .feed)
                XCTFail("\(url) was reached")
            } catch {
                XCTAssertTrue("\(error)".contains("refused"), "\(url): \(error)")
            }
        }
        XCTAssertFalse(listener.someoneConnected, "no connection reached the loopback listener")
    }

    func testTheServerTheStreamerTypedIsReachedWhereverItIs() async throws {
        let listener = try Listener()
        // The listener never answers the upgrade: the connect gets as far as the TCP handshake.
        let port = listener.port
        let attempt = Task { try await connectToChat("ws://127.0.0.1:\(port)/chat", namedBy: .streamer) }
        for _ in 0..<100 where !listener.someoneConnected { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertTrue(listener.someoneConnected, "the typed server was connected to")
        attempt.cancel()
    }

    func testConnectToStillMapsAFeedNamedServer() async throws {
        let mapped = try ConnectTo.parse("chat.example.com:443:127.0.0.1:9")
        let endpoint = try FeedEndpoint.parse("wss://chat.example.com/", service: "test", schemes: ["wss"], namedBy: .feed)
        let pinned = try await FeedConnector.pinnedAddresses(for: endpoint, connectTo: mapped, streamerServer: nil)
        XCTAssertNil(pinned, "COMMENTBAR_CONNECT_TO is the one override")
    }

    /// Issue 28: the server the streamer typed for one feed (an OPENREC relay serving its chat on
    /// the same host and port) is that feed's allowance only: the same address named for a feed
    /// without it is refused, and the allowance opens that host and port alone.
    func testTheStreamersServerIsAnAllowanceOfItsOwnFeed() async throws {
        let listener = try Listener()
        let url = "ws://127.0.0.1:\(listener.port)/socket.io/"
        let typed = StreamerServer(host: "127.0.0.1", port: listener.port)
        let endpoint = try FeedEndpoint.parse(url, service: "test", schemes: ["ws"], namedBy: .feed)
        let allowed = try await FeedConnector.pinnedAddresses(for: endpoint, connectTo: ConnectTo(), streamerServer: typed)
        XCTAssertNil(allowed, "connected by name: the streamer's own server")
        for other in [nil, StreamerServer(host: "127.0.0.1", port: listener.port + 1), StreamerServer(host: "localhost", port: listener.port)] {
            do {
                try await connectToChat(url, namedBy: .feed, streamerServer: other)
                XCTFail("\(url) was reached with \(String(describing: other))")
            } catch {
                XCTAssertTrue("\(error)".contains("refused"), "\(error)")
            }
        }
        XCTAssertFalse(listener.someoneConnected)
        let attempt = Task { try await connectToChat(url, namedBy: .feed, streamerServer: typed) }
        for _ in 0..<100 where !listener.someoneConnected { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertTrue(listener.someoneConnected, "the feed with the allowance reached it")
        attempt.cancel()
    }
}

private func connectToChat(_ url: String, namedBy: FeedEndpoint.NamedBy, streamerServer: StreamerServer? = nil) async throws {
    let endpoint = try FeedEndpoint.parse(url, service: "test", schemes: ["ws"], namedBy: namedBy)
    let channel = try await FeedConnector.connect(to: endpoint, framing: .messages, tls: nil, connectTo: ConnectTo(),
                                                  streamerServer: streamerServer, problems: InputProblemLog(source: "test"))
    try? await channel.channel.close()
}
