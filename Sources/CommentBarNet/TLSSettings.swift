// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc
import NIOSSL

/// TLS for feeds: certificates are always verified against the system trust roots;
/// `COMMENTBAR_CA_FILE` (a PEM file) adds trust roots, for a private relay or a test CA.
package enum TLSSettings {
    package static let extraCAFileVariable = "COMMENTBAR_CA_FILE"

    package struct SetupError: Error, CustomStringConvertible {
        package var description: String
    }

    /// A context for one connection attempt; it loads the trust roots again so a
    /// fixed CA file is picked up without restarting.
    package static func makeContext(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SetupError)
        -> NIOSSLContext
    {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let path = environment[extraCAFileVariable], !path.isEmpty {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw SetupError(description: "\(extraCAFileVariable)=\(path): no such readable file")
            }
            configuration.additionalTrustRoots = [.file(path)]
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw SetupError(description: "TLS setup failed: \(error)")
        }
    }

    /// SNI and certificate name check: a host name, or nil for an IP address
    /// (NIOSSL then checks the certificate against the address connected to).
    package static func serverHostname(for host: String) -> String? {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 || inet_pton(AF_INET6, host, &ipv6) == 1 { return nil }
        return host
    }
}
