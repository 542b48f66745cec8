// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// The one rule for every address a network feed can name (an emote, a badge, an avatar, a
/// background, an API's `host.url` or `viewUri`): the renderer reaches public hosts only.
/// Refused before any connection: a host that is an IP literal; `localhost`, `*.localhost`,
/// `*.local`; a name that resolves to a loopback, private (RFC 1918), link-local, CGNAT
/// (100.64/10), unique-local (fc00::/7), multicast or unspecified address. The fetch then
/// connects to the very address that was checked (see `PinnedClients`), and every redirect is
/// checked again. `COMMENTBAR_CONNECT_TO` is the one explicit override: a host it maps to an
/// address goes there unchecked (tests reach their loopback servers so; operators their proxies).
package enum AddressPolicy {
    package struct Refusal: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Why the host *name* is refused without resolving it, or nil.
    package static func refusal(ofName host: String) -> String? {
        let name = hostWithoutBrackets(host).lowercased()
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        if trimmed.isEmpty { return "an empty host" }
        if (try? SocketAddress(ipAddress: trimmed, port: 0)) != nil { return "an IP address, not a host name" }
        if trimmed == "localhost" || trimmed.hasSuffix(".localhost") { return "a name for this machine" }
        if trimmed.hasSuffix(".local") || trimmed == "local" { return "a name on the local network" }
        // inet_aton's shorthands (127.1, 2130706433, 0x7f.1) are addresses too, as getaddrinfo reads them.
        var shorthand = in_addr()
        if inet_aton(trimmed, &shorthand) != 0 { return "an IP address, not a host name" }
        return nil
    }

    /// Whether `address` is a public unicast address a feed may reach.
    package static func isPublic(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            return isPublic(ipv4: UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case .v6(let v6):
            var raw = v6.address.sin6_addr
            let bytes = withUnsafeBytes(of: &raw) { Array($0) }
            return isPublic(ipv6: bytes)
        case .unixDomainSocket:
            return false
        }
    }

    /// IPv4 (host order): not this network, loopback, RFC 1918, CGNAT, link-local, multicast, reserved.
    package static func isPublic(ipv4 address: UInt32) -> Bool {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool {
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            return address & mask == network & mask
        }
        let refused: [(UInt32, UInt32)] = [
            (0x0000_0000, 8),   // 0.0.0.0/8, "this network" (0.0.0.0 is any local address)
            (0x0A00_0000, 8),   // 10/8
            (0x6440_0000, 10),  // 100.64/10, carrier-grade NAT
            (0x7F00_0000, 8),   // 127/8, loopback
            (0xA9FE_0000, 16),  // 169.254/16, link-local
            (0xAC10_0000, 12),  // 172.16/12
            (0xC000_0000, 24),  // 192.0.0/24, protocol assignments
            (0xC0A8_0000, 16),  // 192.168/16
            (0xC612_0000, 15),  // 198.18/15, benchmarking
            (0xE000_0000, 4),   // 224/4, multicast
            (0xF000_0000, 4),   // 240/4, reserved and broadcast
        ]
        return !refused.contains { within($0.0, $0.1) }
    }

    /// IPv6 (16 bytes): unspecified, loopback, link-local, unique-local, multicast, and the
    /// forms that carry an IPv4 address (mapped, compatible, NAT64) judged by that address.
    package static func isPublic(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        let embedded = UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15])
        if bytes[0..<10].allSatisfy({ $0 == 0 }) {
            if bytes[10] == 0xFF, bytes[11] == 0xFF { return isPublic(ipv4: embedded) }  // ::ffff:a.b.c.d
            return false  // ::, ::1 and the deprecated ::a.b.c.d
        }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublic(ipv4: embedded) }
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7, unique-local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10, link-local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10, old site-local
        if bytes[0] == 0xFF { return false }  // multicast
        return true
    }

    /// The host's addresses, all of them public, or why not. Resolved off the event loops.
    package static func publicAddresses(of host: String, port: Int) async throws(Refusal) -> [SocketAddress] {
        if let why = refusal(ofName: host) { throw Refusal(description: "\(host): \(why)") }
        let result: Result<[SocketAddress], Refusal>
        do {
            result = .success(try await NIOThreadPool.singleton.runIfActive { try resolve(host, port: port) })
        } catch let refusal as Refusal {
            result = .failure(refusal)
        } catch {
            result = .failure(Refusal(description: "\(host): \(error)"))
        }
        let addresses = try result.get()
        if let inside = addresses.first(where: { !isPublic($0) }) {
            throw Refusal(description: "\(host): resolves to \(inside.ipAddress ?? "a local address"), not a public address")
        }
        return addresses
    }

    /// getaddrinfo, blocking (run on the thread pool).
    private static func resolve(_ host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(hostWithoutBrackets(host), String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Refusal(description: "\(host): cannot resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let raw = current.pointee.ai_addr {
                switch Int32(raw.pointee.sa_family) {
                case AF_INET:
                    let v4 = UnsafeRawPointer(raw).load(as: sockaddr_in.self)
                    addresses.append(SocketAddress(v4, host: host))
                case AF_INET6:
                    let v6 = UnsafeRawPointer(raw).load(as: sockaddr_in6.self)
                    addresses.append(SocketAddress(v6, host: host))
                default:
                    break
                }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw Refusal(description: "\(host): no address") }
        return addresses
    }

    static func hostWithoutBrackets(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
