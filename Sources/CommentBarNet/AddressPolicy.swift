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
/// (100.64/10), unique-local (fc00::/7), multicast or unspecified address, nor an IPv6 address
/// that carries such an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4). The fetch then
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

    /// IPv6 (16 bytes): unspecified, loopback, link-local, unique-local, multicast; and the forms
    /// that carry an IPv4 address (`embeddedIPv4`) judged by that address, as that is where a
    /// translator or tunnel sends them (64:ff9b::127.0.0.1 reaches 127.0.0.1 through NAT64).
    package static func isPublic(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        if let inside = embeddedIPv4(bytes) { return isPublic(ipv4: inside) }
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7, unique-local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10, link-local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10, old site-local
        if bytes[0] == 0xFF { return false }  // multicast
        return true
    }

    /// The IPv4 address (host order) inside an IPv6 address of a form that carries one, or nil:
    /// - `::a.b.c.d` (IPv4-compatible, deprecated; `::` and `::1` are 0.0.0.0 and 0.0.0.1 so, refused)
    ///   and `::ffff:a.b.c.d` (IPv4-mapped);
    /// - `::ffff:0:a.b.c.d` (SIIT's IPv4-translated, RFC 2765);
    /// - `64:ff9b::a.b.c.d` (NAT64's well-known prefix, RFC 6052) and `64:ff9b:1::/48` (local-use
    ///   NAT64, RFC 8215), whose address is in the last 32 bits as DNS64 writes it (a /96 prefix);
    /// - `2002:AABB:CCDD::/48` (6to4, RFC 3056): the IPv4 after the prefix.
    static func embeddedIPv4(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count == 16 else { return nil }
        func ipv4(at offset: Int) -> UInt32 {
            bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        func zero(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == 0 } }
        if zero(0..<10), (zero(10..<12) || (bytes[10] == 0xFF && bytes[11] == 0xFF)) { return ipv4(at: 12) }
        if zero(0..<8), bytes[8] == 0xFF, bytes[9] == 0xFF, zero(10..<12) { return ipv4(at: 12) }
        if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B], zero(4..<12) { return ipv4(at: 12) }
        if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return ipv4(at: 12) }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return ipv4(at: 2) }
        return nil
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
