// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The host and port the streamer typed in the `server` setting (their relay, or an API on their
/// own machine or network): theirs to choose, so the address policy lets that very host and port
/// be reached wherever it is. It travels with the requests and connections of the one feed that
/// was made from it, and with nothing else: another feed, a redirect elsewhere or a chat server an
/// answer names is checked as usual.
public struct StreamerServer: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = Self.normalized(host)
        self.port = port
    }

    /// The host and port of a URL the streamer typed (its scheme's default port when it names none).
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else { return nil }
        let defaultPort = ["https": 443, "wss": 443, "http": 80, "ws": 80, "ircs": 6697, "irc": 6667][scheme]
        guard let port = components.port ?? defaultPort else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether `host`:`port` is this server (the host compared without case or IPv6 brackets).
    public func matches(host: String, port: Int) -> Bool {
        port == self.port && Self.normalized(host) == self.host
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func normalized(_ host: String) -> String {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare.lowercased()
    }
}
