// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// The requests a keyless web client makes to YouTube, all to one base URL (YouTube's own,
/// or the `server` setting): the page, `get_live_chat` and `updated_metadata`.
struct InnerTubeAPI: Sendable {
    /// `https://www.youtube.com`, or the `server` setting, without a trailing slash.
    var web: WebAPI
    var baseURL: String { web.base }

    /// Pages and responses are capped: a watch page is about 1 MiB, a chat response far less.
    static let limits = WebLimits(maxBytes: 8 << 20, timeout: .seconds(20))
    /// What a browser sends with a page request: English, and the cookie of a declined consent
    /// dialog (no consent page in the EU).
    static let pageHeaders = [(name: "Accept-Language", value: "en-US,en;q=0.9"), (name: "Cookie", value: "SOCS=CAI")]

    /// The page of a video or of a channel's live stream.
    func page(_ target: YouTubeStreamID) async throws(WebFailure) -> WatchPage {
        WatchPage(html: try await web.get(baseURL + target.pagePath, limits: Self.limits,
                                          accept: "text/html,application/xhtml+xml", headers: Self.pageHeaders))
    }

    /// The chat's own page (`/live_chat?is_popout=1&v=ID`), for a watch page that named no continuation.
    func chatPage(videoID: String) async throws(WebFailure) -> WatchPage {
        WatchPage(html: try await web.get(baseURL + "/live_chat?is_popout=1&v=\(videoID)", limits: Self.limits,
                                          accept: "text/html,application/xhtml+xml", headers: Self.pageHeaders))
    }

    struct ChatRequest: Encodable {
        var context: InnertubeContext
        var continuation: String
    }

    struct MetadataRequest: Encodable {
        var context: InnertubeContext
        var videoId: String
    }

    /// One chat poll. The body is decoded by the caller, which logs what it cannot read.
    func liveChat(_ start: WatchPage.LiveChatStart, continuation: String) async throws(WebFailure) -> [UInt8] {
        try await post("live_chat/get_live_chat", start, ChatRequest(context: start.context, continuation: continuation))
    }

    /// The live viewer count ("N watching now"), as the player refreshes it.
    func updatedMetadata(_ start: WatchPage.LiveChatStart) async throws(WebFailure) -> [UInt8] {
        try await post("updated_metadata", start, MetadataRequest(context: start.context, videoId: start.videoID))
    }

    private func post(_ endpoint: String, _ start: WatchPage.LiveChatStart,
                      _ request: some Encodable) async throws(WebFailure) -> [UInt8] {
        let body: [UInt8]
        do {
            body = Array(try JSONEncoder().encode(request))
        } catch {
            throw WebFailure("cannot encode the \(endpoint) request")
        }
        var url = baseURL + "/youtubei/v1/\(endpoint)?prettyPrint=false"
        if let key = start.apiKey, !key.isEmpty, key.utf8.allSatisfy(Self.isKeyByte) { url += "&key=\(key)" }
        var headers = [(name: "Origin", value: baseURL), (name: "Referer", value: baseURL + "/watch?v=\(start.videoID)")]
        if start.context.client?.clientName == "WEB" { headers.append((name: "X-YouTube-Client-Name", value: "1")) }
        if let version = start.context.client?.clientVersion, version.utf8.allSatisfy(Self.isKeyByte) {
            headers.append((name: "X-YouTube-Client-Version", value: version))
        }
        return try await web.post(url, body: body, limits: Self.limits, headers: headers)
    }

    /// Keys and versions go into a URL or a header as they are: letters, digits, `-_.` only.
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
