// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials
import Glibc

/// Where one request's connection really goes, decided before it is made.
///
/// The host is read from the URL exactly as AsyncHTTPClient reads it (`URL(string:)`'s host,
/// IPv6 brackets trimmed): the address policy checks that name, and the connection is pinned
/// under the key AsyncHTTPClient looks its DNS override up by (`connectionKey`), so the name it
/// connects by is the one that was checked (a second parser, such as `URLComponents`, may spell
/// an international or escaped name otherwise).
struct HTTPTarget: Equatable {
    /// The URL as sent: the port rewritten where `COMMENTBAR_CONNECT_TO` names another.
    var requestURL: String
    /// The `Host` header: the URL's own host and port, wherever the connection goes.
    var hostHeader: String
    /// The host as AsyncHTTPClient reads it from `requestURL`.
    var host: String
    /// The host as AsyncHTTPClient keys its connections and DNS override (`ConnectionTarget`): the
    /// host, an IPv6 address in brackets.
    var connectionKey: String
    /// The URL's port (before any rewriting).
    var port: Int

    enum Route: Equatable {
        /// A `COMMENTBAR_CONNECT_TO` rule names this address: the operator's (or a test's)
        /// explicit choice, connected to as is.
        case mapped(address: String)
        /// The server the streamer typed: connected to by name, wherever it is.
        case byName
        /// Anything else: resolved, refused unless every address is public, and pinned.
        case checked
    }

    init(url: String, connectTo: ConnectTo) throws(WebFailure) {
        guard url.utf8.count <= 4096, let parsed = URL(string: url), parsed.scheme?.lowercased() == "https",
              let host = Self.host(of: parsed), parsed.user == nil, parsed.password == nil,
              var components = URLComponents(string: url) else {
            throw .notHTTPS(url)
        }
        let port = parsed.port ?? 443
        components.port = connectTo.target(host: host, port: port).port
        guard let rewritten = components.string, let sent = URL(string: rewritten), Self.host(of: sent) == host else {
            throw .notHTTPS(url)
        }
        requestURL = rewritten
        self.host = host
        var ipv6 = in6_addr()
        connectionKey = inet_pton(AF_INET6, host, &ipv6) == 1 ? "[\(host)]" : host
        self.port = port
        let shownHost = host.contains(":") ? "[\(host)]" : host
        hostHeader = port == 443 ? shownHost : "\(shownHost):\(port)"
    }

    /// AsyncHTTPClient's reading of a URL's host (its `DeconstructedURL`), or nil when it has none.
    static func host(of url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// How to reach this target: a connect-to rule with an address wins, then the streamer's own
    /// server, else the address policy. A rule that names no address (only a port) is no exemption.
    func route(streamerServer: StreamerServer?, connectTo: ConnectTo) -> Route {
        if let address = connectTo.address(host: host, port: port) { return .mapped(address: address) }
        if streamerServer?.matches(host: host, port: port) == true { return .byName }
        return .checked
    }
}
