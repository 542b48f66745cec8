// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials

/// A platform's web API as one feed reaches it: the web the feed was given, the API's base URL
/// (the platform's own, or the `server` setting) and, when the streamer typed that server, the
/// allowance to reach it wherever it is. Every request of the feed carries the allowance; it
/// opens that very host and port only (see `StreamerServer`).
package struct WebAPI: Sendable {
    package var web: any WebFetching
    /// `https://host[:port][/path]`, without a trailing slash.
    package var base: String
    package var streamerServer: StreamerServer?

    package init(web: any WebFetching, base: String, streamerServer: StreamerServer? = nil) {
        self.web = web
        self.base = base
        self.streamerServer = streamerServer
    }

    /// The platform's own API, or the `server` setting (an https:// URL, for tests and relays),
    /// which the streamer typed and so may be reached wherever it is.
    package static func parse(_ server: String, default platformBase: String, service: String,
                              web: any WebFetching) throws(FeedConfigError) -> WebAPI {
        guard !server.isEmpty else { return WebAPI(web: web, base: platformBase) }
        guard server.utf8.count <= 2048, let components = URLComponents(string: server),
              components.scheme?.lowercased() == "https", let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil,
              components.query == nil, components.fragment == nil,
              let typed = StreamerServer(url: server) else {
            throw FeedConfigError("bad server \(String(reflecting: String(server.prefix(120)))) for \(service): expected an https:// URL like \(platformBase)")
        }
        var base = server
        while base.hasSuffix("/") { base.removeLast() }
        return WebAPI(web: web, base: base, streamerServer: typed)
    }

    /// `fetchJSON` for a GET of `url` (the base's or another host's), with this feed's allowance.
    package func getJSON<Answer: Decodable>(_ type: Answer.Type, from url: String, limits: WebLimits,
                                            headers: [(name: String, value: String)] = []) async throws(WebFailure) -> Answer {
        try await web.getJSON(type, from: url, limits: limits, headers: headers, streamerServer: streamerServer)
    }

    /// `fetchJSON` for a form POST to `url`, with this feed's allowance.
    package func postFormJSON<Answer: Decodable>(_ type: Answer.Type, to url: String, form: String,
                                                 limits: WebLimits) async throws(WebFailure) -> Answer {
        try await web.fetchJSON(type, WebRequest(url: url, method: .post, accept: "application/json",
                                                 headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                                                 body: Array(form.utf8), limits: limits, streamerServer: streamerServer))
    }

    /// The body of a GET of `url`, with this feed's allowance.
    package func get(_ url: String, limits: WebLimits, accept: String = "*/*",
                     headers: [(name: String, value: String)] = []) async throws(WebFailure) -> [UInt8] {
        try await web.get(url, limits: limits, accept: accept, headers: headers, streamerServer: streamerServer)
    }

    /// The body of a POST to `url`, with this feed's allowance.
    package func post(_ url: String, body: [UInt8], limits: WebLimits,
                      headers: [(name: String, value: String)] = []) async throws(WebFailure) -> [UInt8] {
        try await web.post(url, body: body, limits: limits, headers: headers, streamerServer: streamerServer)
    }

    /// A streamed GET of `url` (`WebFetching.open`), with this feed's allowance.
    package func open(_ url: String, limits: WebLimits, accept: String = "*/*") async throws(WebFailure) -> WebBodyStream {
        try await web.open(WebRequest(url: url, accept: accept, limits: limits, streamerServer: streamerServer))
    }
}
