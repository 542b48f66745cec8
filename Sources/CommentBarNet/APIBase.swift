// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials

/// The base URL of a platform's web API: the platform's own, or the `server` setting
/// (an https:// URL, for tests and relays) without a trailing slash.
package enum APIBase {
    package static func parse(_ server: String, default platformBase: String, service: String) throws(FeedConfigError) -> String {
        guard !server.isEmpty else { return platformBase }
        guard server.utf8.count <= 2048, let components = URLComponents(string: server),
              components.scheme?.lowercased() == "https", let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil,
              components.query == nil, components.fragment == nil else {
            throw FeedConfigError("bad server \(String(reflecting: String(server.prefix(120)))) for \(service): expected an https:// URL like \(platformBase)")
        }
        // The streamer typed it: it may be on their own machine or network.
        StreamerTypedHosts.allow(host: host, port: components.port ?? 443)
        return server.hasSuffix("/") ? String(server.dropLast()) : server
    }
}
