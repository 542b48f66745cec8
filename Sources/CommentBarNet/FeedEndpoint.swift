// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials

/// Where a network feed connects: parsed and checked from the `server` setting or from a
/// platform's answer (a chat server's address), and who named it.
package struct FeedEndpoint: Sendable, Equatable, CustomStringConvertible {
    package enum Transport: Sendable, Equatable {
        /// IRC lines over TCP (`irc://`, `ircs://`).
        case tcp
        /// WebSocket text messages (`ws://`, `wss://`); `path` is the request target.
        case webSocket(path: String)
    }

    /// Who named this address, which decides where it may lead (`AddressPolicy`).
    package enum NamedBy: Sendable, Equatable {
        /// The streamer, in the `server` setting: reached wherever it is (their own relay or IRC
        /// server may well be on this machine or their network).
        case streamer
        /// A platform's answer or our own table: reached only at a public address.
        case feed
    }

    package var transport: Transport
    package var usesTLS: Bool
    package var host: String
    package var port: Int
    package var namedBy: NamedBy

    package var scheme: String {
        switch transport {
        case .tcp: return usesTLS ? "ircs" : "irc"
        case .webSocket: return usesTLS ? "wss" : "ws"
        }
    }

    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        switch transport {
        case .tcp: return "\(scheme)://\(shownHost):\(port)"
        case .webSocket(let path): return "\(scheme)://\(shownHost):\(port)\(path)"
        }
    }

    /// The Host header value: the port only when it is not the scheme's default.
    package var hostHeader: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == (usesTLS ? 443 : 80) ? shownHost : "\(shownHost):\(port)"
    }

    static let defaultPorts = ["irc": 6667, "ircs": 6697, "ws": 80, "wss": 443]

    /// Parses `scheme://host[:port][/path][?query]` for a service that accepts `schemes`.
    package static func parse(_ text: String, service: String, schemes: [String],
                              namedBy: NamedBy) throws(FeedConfigError) -> FeedEndpoint {
        let expected = schemes.map { "\($0)://" }.joined(separator: ", ")
        func refuse(_ why: String) -> FeedConfigError {
            FeedConfigError("bad server \(String(reflecting: text)) for \(service): \(why) (expected \(expected) URL)")
        }
        guard text.utf8.count <= 2048 else { throw refuse("too long") }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw refuse("it contains spaces or control characters")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw refuse("not a URL")
        }
        guard schemes.contains(scheme), let defaultPort = defaultPorts[scheme] else {
            throw refuse("scheme \"\(scheme)\" is not supported")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw refuse("no host") }
        guard components.user == nil, components.password == nil else {
            throw refuse("user names and passwords are not supported")
        }
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { throw refuse("port \(port) is out of range") }

        let path = components.percentEncodedPath
        switch scheme {
        case "irc", "ircs":
            guard path.isEmpty || path == "/", components.percentEncodedQuery == nil else {
                throw refuse("IRC URLs take no path or query; give the channel as the stream id")
            }
            return FeedEndpoint(transport: .tcp, usesTLS: scheme == "ircs", host: host, port: port, namedBy: namedBy)
        default:
            var target = path.isEmpty ? "/" : path
            if let query = components.percentEncodedQuery { target += "?" + query }
            return FeedEndpoint(transport: .webSocket(path: target), usesTLS: scheme == "wss", host: host, port: port,
                                namedBy: namedBy)
        }
    }
}
