// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials

/// The requests platforms and picture fetches make, over any `WebFetching` (the real one or a
/// test's double): GET, POST, and the one "fetch JSON or fail" every platform's API goes through.
extension WebFetching {
    /// The body of `url`, or why not.
    package func get(_ url: String, limits: WebLimits, accept: String = "*/*", headers: [(name: String, value: String)] = [],
                     streamerServer: StreamerServer? = nil) async throws(WebFailure) -> [UInt8] {
        try await fetch(WebRequest(url: url, accept: accept, headers: headers, limits: limits,
                                   streamerServer: streamerServer)).body
    }

    /// POSTs `body` (JSON unless `contentType` says otherwise) and returns the answer's body.
    package func post(_ url: String, body: [UInt8], contentType: String = "application/json", limits: WebLimits,
                      accept: String = "application/json", headers: [(name: String, value: String)] = [],
                      streamerServer: StreamerServer? = nil) async throws(WebFailure) -> [UInt8] {
        try await fetch(WebRequest(url: url, method: .post, accept: accept,
                                   headers: headers + [(name: "Content-Type", value: contentType)], body: body,
                                   limits: limits, streamerServer: streamerServer)).body
    }

    /// The answer to `request` decoded as `Answer`: fetched within its caps and deadline, and
    /// one clear message when it fails or is not the JSON expected (`… : not the expected JSON`).
    package func fetchJSON<Answer: Decodable>(_ type: Answer.Type, _ request: WebRequest) async throws(WebFailure) -> Answer {
        var request = request
        if request.accept == "*/*" { request.accept = "application/json" }
        let body = try await fetch(request).body
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(body))
        } catch {
            throw .notJSON(request.url)
        }
    }

    /// `fetchJSON` for a GET of `url`.
    package func getJSON<Answer: Decodable>(_ type: Answer.Type, from url: String, limits: WebLimits,
                                            headers: [(name: String, value: String)] = [],
                                            streamerServer: StreamerServer? = nil) async throws(WebFailure) -> Answer {
        try await fetchJSON(type, WebRequest(url: url, accept: "application/json", headers: headers, limits: limits,
                                             streamerServer: streamerServer))
    }
}
