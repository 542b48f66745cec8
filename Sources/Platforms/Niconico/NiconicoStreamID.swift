// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import FoundationEssentials

/// What the streamer pasted, as the path of a watch page: a programme (`lv…`), or a
/// community, channel or user whose watch page serves its current programme.
struct NiconicoStreamID: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// One programme: once it ends, it stays ended.
        case programme
        /// A community (`co…`), channel (`ch…`) or user: the next programme may follow.
        case broadcaster
    }

    /// The path after `/watch/`: `lv123`, `co123`, `ch123` or `user/123`.
    var watchPath: String
    var kind: Kind

    static let maxLength = 512

    /// Accepts `lv…`/`co…`/`ch…`, `user/ID`, and the URLs of watch, community, channel and user pages.
    static func parse(_ text: String) throws(FeedConfigError) -> NiconicoStreamID {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        let help = "expected lv…, co…, ch…, a live.nicovideo.jp/watch/… URL or a user page URL"
        guard !trimmed.isEmpty else { throw FeedConfigError("the niconico stream id is empty (\(help))") }
        guard trimmed.utf8.count <= maxLength else { throw FeedConfigError("the niconico stream id is too long") }
        if let id = bare(trimmed) { return id }
        // A URL: keep its path, without query or fragment.
        var rest = Substring(trimmed)
        if let schemeEnd = rest.firstRange(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "https" || scheme == "http" else {
                throw FeedConfigError("not a niconico URL: \(String(reflecting: String(trimmed.prefix(80)))) (\(help))")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        rest = rest.prefix { $0 != "?" && $0 != "#" }
        let parts = rest.split(separator: "/").map(String.init)
        guard let host = parts.first?.lowercased(), host == "nicovideo.jp" || host.hasSuffix(".nicovideo.jp")
                || host == "nico.ms" else {
            throw FeedConfigError("not a niconico URL: \(String(reflecting: String(trimmed.prefix(80)))) (\(help))")
        }
        let path = Array(parts.dropFirst())
        // …/watch/lv123, …/watch/co123, …/watch/user/123
        if let watch = path.firstIndex(of: "watch"), watch + 1 < path.count {
            if path[watch + 1] == "user", watch + 2 < path.count, let id = user(path[watch + 2]) { return id }
            if let id = bare(path[watch + 1]) { return id }
        }
        // nico.ms/lv123, com.nicovideo.jp/community/co123, ch.nicovideo.jp/ch123
        if host == "nico.ms" || host.hasPrefix("com.") || host.hasPrefix("ch."), let last = path.last, let id = bare(last) {
            return id
        }
        // www.nicovideo.jp/user/123 (…/live_programs and other tabs after it)
        if let index = path.firstIndex(of: "user"), index + 1 < path.count, let id = user(path[index + 1]) { return id }
        throw FeedConfigError("no programme, community, channel or user in \(String(reflecting: String(trimmed.prefix(80)))) (\(help))")
    }

    /// `lv123`, `co123`, `ch123` or `user/123`.
    private static func bare(_ text: String) -> NiconicoStreamID? {
        if text.hasPrefix("user/") { return user(String(text.dropFirst(5))) }
        for (prefix, kind) in [("lv", Kind.programme), ("co", .broadcaster), ("ch", .broadcaster)] {
            if text.hasPrefix(prefix), isDigits(text.dropFirst(prefix.count)) {
                return NiconicoStreamID(watchPath: text, kind: kind)
            }
        }
        return nil
    }

    private static func user(_ digits: String) -> NiconicoStreamID? {
        isDigits(Substring(digits)) ? NiconicoStreamID(watchPath: "user/" + digits, kind: .broadcaster) : nil
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 20 && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
