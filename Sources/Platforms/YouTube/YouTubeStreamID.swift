// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials

/// What a `youtube` stream id names: one video (a live stream), or a channel whose current
/// live stream is wanted (`@name` → `https://www.youtube.com/@name/live`).
enum YouTubeStreamID: Sendable, Equatable {
    case video(String)
    /// A channel path below the base URL, without slashes at either end: `@name` or `channel/UC…`.
    case channel(String)

    /// The page that starts a connection, below the base URL (`https://www.youtube.com` or `server`).
    var pagePath: String {
        switch self {
        case .video(let id): return "/watch?v=\(id)"
        case .channel(let path): return "/\(path)/live"
        }
    }

    var shown: String {
        switch self {
        case .video(let id): return id
        case .channel(let path): return path
        }
    }

    /// A video id, a watch / youtu.be / live / shorts URL, `@handle`, or a channel URL.
    /// The host of a URL only decides that it is YouTube's: requests always go to the base URL.
    static func parse(_ text: String) throws(FeedConfigError) -> YouTubeStreamID {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else {
            throw FeedConfigError("the youtube service needs a video id, a watch URL or a channel @handle as its stream id")
        }
        guard trimmed.utf8.count <= 512 else { throw FeedConfigError("the youtube stream id is too long") }
        if isVideoID(trimmed) { return .video(trimmed) }
        if trimmed.hasPrefix("@") {
            guard let handle = handle(trimmed) else { throw bad(text) }
            return .channel(handle)
        }
        guard trimmed.contains("."), !trimmed.contains(where: \.isWhitespace) else { throw bad(text) }
        var urlText = trimmed
        if !urlText.contains("://") { urlText = "https://" + urlText }
        guard let components = URLComponents(string: urlText), let host = components.host?.lowercased(),
              ["http", "https"].contains(components.scheme?.lowercased() ?? "") else { throw bad(text) }
        let parts = components.path.split(separator: "/").map(String.init)
        if host == "youtu.be" || host == "www.youtu.be" {
            guard let id = parts.first, isVideoID(id) else { throw bad(text) }
            return .video(id)
        }
        guard host == "youtube.com" || host.hasSuffix(".youtube.com") else {
            throw FeedConfigError("\(String(reflecting: String(text.prefix(80)))) is not a YouTube address")
        }
        if parts.first == "watch" || parts.first == "live_chat" {
            guard let id = components.queryItems?.first(where: { $0.name == "v" })?.value, isVideoID(id) else {
                throw bad(text)
            }
            return .video(id)
        }
        if let first = parts.first, ["live", "shorts", "embed", "v"].contains(first), parts.count >= 2 {
            guard isVideoID(parts[1]) else { throw bad(text) }
            return .video(parts[1])
        }
        if let first = parts.first, first.hasPrefix("@") {
            guard let handle = handle(first) else { throw bad(text) }
            return .channel(handle)
        }
        if let first = parts.first, ["channel", "c", "user"].contains(first), parts.count >= 2,
           parts[1].utf8.count <= 100, parts[1].allSatisfy(isNameCharacter) {
            return .channel("\(first)/\(parts[1])")
        }
        throw bad(text)
    }

    /// YouTube video ids: 11 characters of the URL-safe base64 alphabet.
    static func isVideoID(_ text: String) -> Bool {
        text.utf8.count == 11 && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// `@name` (handles allow letters of any script, digits, `_`, `-`, `.`), percent-encoded
    /// for the request path whether it came encoded (a copied URL) or not.
    private static func handle(_ text: String) -> String? {
        let decoded = URLComponents(string: "https://host/" + text).map { Substring($0.path.dropFirst()) } ?? Substring(text)
        let name = decoded.dropFirst()
        guard decoded.hasPrefix("@"), !name.isEmpty, name.count <= 100, name.allSatisfy(isNameCharacter) else { return nil }
        var path = URLComponents()
        path.path = "/@" + name
        return String(path.percentEncodedPath.dropFirst())
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }

    private static func bad(_ text: String) -> FeedConfigError {
        FeedConfigError("bad youtube stream id \(String(reflecting: String(text.prefix(80)))): use a video id, a watch URL (https://www.youtube.com/watch?v=…), https://youtu.be/…, or a channel @handle")
    }
}
