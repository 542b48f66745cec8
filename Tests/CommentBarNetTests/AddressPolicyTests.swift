// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import XCTest
@testable import CommentBarNet

/// Issue 19, finding 2: the one address policy for everything a feed names.
final class AddressPolicyTests: XCTestCase {
    func testNamesForThisMachineAndAddressesAreRefusedBeforeResolving() {
        for host in ["127.0.0.1", "[::1]", "::1", "localhost", "LOCALHOST.", "emotes.localhost", "printer.local",
                     "10.1.2.3", "8.8.8.8", "127.1", "2130706433", "0x7f.1", ""] {
            XCTAssertNotNil(AddressPolicy.refusal(ofName: host), host)
        }
        for host in ["static-cdn.jtvnw.net", "cdn.7tv.app", "yt3.ggpht.com", "localhost.example.com", "local.example"] {
            XCTAssertNil(AddressPolicy.refusal(ofName: host), host)
        }
    }

    func testOnlyPublicAddressesPass() throws {
        func address(_ text: String) throws -> SocketAddress { try SocketAddress(ipAddress: text, port: 443) }
        for inside in ["127.0.0.1", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.0.1", "169.254.169.254",
                       "100.64.0.1", "100.127.255.255", "0.0.0.0", "224.0.0.1", "255.255.255.255",
                       "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1",
                       "::ffff:10.0.0.1", "64:ff9b::7f00:1"] {
            XCTAssertFalse(AddressPolicy.isPublic(try address(inside)), inside)
        }
        for outside in ["8.8.8.8", "151.101.1.1", "100.128.0.1", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"] {
            XCTAssertTrue(AddressPolicy.isPublic(try address(outside)), outside)
        }
    }

    /// Issue 28: the IPv6 forms that carry an IPv4 address are judged by that address (a NAT64
    /// or 6to4 gateway, or a SIIT translator, sends them there), not by their own prefix.
    func testAddressesInsideIPv6AreJudgedByTheIPv4Inside() throws {
        func address(_ text: String) throws -> SocketAddress { try SocketAddress(ipAddress: text, port: 443) }
        let inside = [
            "64:ff9b:1::7f00:1", "64:ff9b:1:abcd::c0a8:101",  // local-use NAT64: 127.0.0.1, 192.168.1.1
            "64:ff9b::a00:1",  // well-known NAT64: 10.0.0.1
            "2002:7f00:1::1", "2002:a9fe:a9fe::", "2002:c0a8:1::1",  // 6to4: 127.0.0.1, 169.254.169.254, 192.168.0.1
            "::ffff:0:127.0.0.1", "::ffff:0:10.1.2.3",  // SIIT (IPv4-translated)
            "::127.0.0.1", "::10.0.0.1", "::ffff:169.254.169.254",  // IPv4-compatible, IPv4-mapped
        ]
        for text in inside { XCTAssertFalse(AddressPolicy.isPublic(try address(text)), text) }
        let outside = ["64:ff9b:1::808:808", "64:ff9b::808:808", "2002:808:808::1", "::ffff:0:8.8.8.8", "::8.8.8.8",
                       "::ffff:1.1.1.1"]
        for text in outside { XCTAssertTrue(AddressPolicy.isPublic(try address(text)), text) }
    }

    func testANameResolvingToLoopbackIsRefused() async {
        // `localhost` is refused by name; a name the resolver maps to loopback is refused by address.
        do {
            _ = try await AddressPolicy.publicAddresses(of: "localhost", port: 443)
            XCTFail("localhost passed")
        } catch {
            XCTAssertTrue(error.description.contains("this machine"), error.description)
        }
        do {
            _ = try await AddressPolicy.publicAddresses(of: "ip6-localhost", port: 443)
            XCTFail("ip6-localhost passed")
        } catch {
            XCTAssertTrue(error.description.contains("not a public address") || error.description.contains("cannot resolve"),
                          error.description)
        }
    }

    func testConnectToIsTheOneOverride() throws {
        let rules = try ConnectTo.parse("static-cdn.jtvnw.net:443:127.0.0.1:8443,:8080::9090")
        XCTAssertEqual(rules.address(host: "static-cdn.jtvnw.net", port: 443), "127.0.0.1")
        XCTAssertNil(rules.address(host: "static-cdn.jtvnw.net", port: 444))
        XCTAssertNil(rules.address(host: "example.com", port: 8080), "a port-only rule names no address")
    }
}
