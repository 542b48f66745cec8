// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// Where DoAction requests go: Streamer.bot's or Cuebot's own servers, as the streamer typed them in
/// `actions_target` (never an address from a feed): `http://HOST:PORT/DoAction` (the HTTP server),
/// `ws://HOST:PORT/` (the WebSocket server) or `udp://HOST:PORT` (the UDP server). Only this machine
/// or the streamer's own network is reached (`LocalAddresses`): a mistyped public host is refused
/// rather than sent the chat. What the streamer reads of it (the status line, the log) is only its
/// scheme, host and port: a path or query may hold a key, and user info a password.
public struct ActionTarget: Sendable, Equatable, CustomStringConvertible {
    public enum Transport: Sendable, Equatable {
        /// `POST path` with the request as JSON, answered 204.
        case http(path: String)
        /// One long-lived WebSocket; `path` is the upgrade's request target.
        case webSocket(path: String)
        /// One datagram per request.
        case udp
    }

    public var transport: Transport
    public var host: String
    public var port: Int

    public init(transport: Transport, host: String, port: Int) {
        self.transport = transport
        self.host = host
        self.port = port
    }

    /// The servers' default ports (docs.streamer.bot: HTTP 7474, WebSocket 8080, UDP 4242).
    static let defaultPorts = ["http": 7474, "ws": 8080, "udp": 4242]

    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The setting as a target; nil when it is empty (actions off).
    public static func parse(_ setting: String) throws(ParseError) -> ActionTarget? {
        let text = setting.trimmingWhitespace(andNewlines: true)
        guard !text.isEmpty else { return nil }
        func refuse(_ why: String) -> ParseError {
            ParseError(description: "actions: \(shown(text)) is not an address for actions: "
                       + "\(why) (expected http://HOST:PORT/DoAction, ws://HOST:PORT/ or udp://HOST:PORT)")
        }
        guard text.utf8.count <= 2048,
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw refuse("it is too long or holds spaces")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let defaultPort = defaultPorts[scheme] else {
            throw refuse("the scheme must be http, ws or udp (wss and https: Streamer.bot's servers speak neither)")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw refuse("no host") }
        guard components.user == nil, components.password == nil else {
            throw refuse("a password goes in its own field, not in the address")
        }
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { throw refuse("port \(port) is out of range") }
        var path = components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        switch scheme {
        case "http":
            return ActionTarget(transport: .http(path: path.isEmpty || path == "/" ? "/DoAction" : path), host: host, port: port)
        case "ws":
            return ActionTarget(transport: .webSocket(path: path.isEmpty ? "/" : path), host: host, port: port)
        default:
            guard path.isEmpty || path == "/" else { throw refuse("a udp:// address takes no path") }
            return ActionTarget(transport: .udp, host: host, port: port)
        }
    }

    /// A setting that is not a target, as an error quotes it: its scheme, host and port when it
    /// reads as a URL, else nothing of it (it may be a password pasted in the wrong field).
    static func shown(_ text: String) -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }), scheme.count <= 10 else {
            return "the address"
        }
        let host = String((components.host ?? "").prefix(80))
        let port = components.port.map { ":\($0)" } ?? ""
        return String(reflecting: "\(scheme.lowercased())://\(host)\(port)")
    }

    /// The host as a URL writes it.
    var shownHost: String { host.contains(":") ? "[\(host)]" : host }

    var scheme: String {
        switch transport {
        case .http: return "http"
        case .webSocket: return "ws"
        case .udp: return "udp"
        }
    }

    /// Scheme, host and port only: what the status line and the log say.
    public var description: String { "\(scheme)://\(shownHost):\(port)" }

    /// The whole target, its path and query included: a change of any part starts a new sender
    /// (never shown).
    var identity: String {
        switch transport {
        case .http(let path), .webSocket(let path): return description + path
        case .udp: return description
        }
    }
}
