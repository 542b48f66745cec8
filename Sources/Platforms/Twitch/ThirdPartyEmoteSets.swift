// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import FoundationEssentials

/// The emote lists of BetterTTV, FrankerFaceZ and 7TV, read from their public APIs' JSON
/// (betterttv.com/developers/api, api.frankerfacez.com/docs, 7tv.io/docs; the same paths
/// chatterino2 reads). Every field is optional: an emote without a code or a usable image is
/// skipped, and one of another shape does not fail the list.
enum ThirdPartyEmoteSets {
    /// One emote: the word chat types and its image.
    struct Entry: Equatable, Sendable {
        var code: String
        var url: String
    }

    enum Provider: String, CaseIterable, Sendable {
        case sevenTV = "7TV"
        case betterTTV = "BetterTTV"
        case frankerFaceZ = "FrankerFaceZ"

        /// The CDN its pictures come from: a list naming pictures elsewhere has them refused.
        var pictureHosts: [String] {
            switch self {
            case .sevenTV: return ["cdn.7tv.app"]
            case .betterTTV: return ["cdn.betterttv.net"]
            case .frankerFaceZ: return ["cdn.frankerfacez.com"]
            }
        }
    }

    static func globalURL(_ provider: Provider) -> String {
        switch provider {
        case .sevenTV: return "https://7tv.io/v3/emote-sets/global"
        case .betterTTV: return "https://api.betterttv.net/3/cached/emotes/global"
        case .frankerFaceZ: return "https://api.frankerfacez.com/v1/set/global"
        }
    }

    /// `room` is Twitch's numeric channel id (digits only, checked by `TwitchTags.roomID`).
    static func channelURL(_ provider: Provider, room: String) -> String {
        switch provider {
        case .sevenTV: return "https://7tv.io/v3/users/twitch/\(room)"
        case .betterTTV: return "https://api.betterttv.net/3/cached/users/twitch/\(room)"
        case .frankerFaceZ: return "https://api.frankerfacez.com/v1/room/id/\(room)"
        }
    }

    /// Every list is small: a larger answer is refused.
    static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(10))

    /// A provider's global list (no `room`) or a channel's (`room`), fetched and read.
    static func fetch(_ provider: Provider, room: String?, web: any WebFetching) async throws(WebFailure) -> [Entry] {
        guard let room else {
            let url = globalURL(provider)
            switch provider {
            case .sevenTV: return try await web.getJSON(SevenTVSet.self, from: url, limits: limits).entries
            case .betterTTV:
                return try await web.getJSON([Skippable<BTTVEmote>].self, from: url, limits: limits).compactMap { $0.value?.entry }
            case .frankerFaceZ: return try await web.getJSON(FFZSets.self, from: url, limits: limits).entries(onlyDefault: true)
            }
        }
        let url = channelURL(provider, room: room)
        switch provider {
        case .sevenTV:
            return try await web.getJSON(SevenTVUser.self, from: url, limits: limits).emoteSet?.entries ?? []
        case .betterTTV:
            let user = try await web.getJSON(BTTVUser.self, from: url, limits: limits)
            return ((user.channelEmotes ?? []) + (user.sharedEmotes ?? [])).compactMap { $0.value?.entry }
        case .frankerFaceZ:
            return try await web.getJSON(FFZSets.self, from: url, limits: limits).entries(onlyDefault: false)
        }
    }

    // MARK: BetterTTV

    struct BTTVEmote: Decodable {
        var id: String?
        var code: String?
        var entry: Entry? {
            guard let id, isPlainID(id), let code = emoteCode(code) else { return nil }
            return Entry(code: code, url: "https://cdn.betterttv.net/emote/\(id)/2x")
        }
    }

    struct BTTVUser: Decodable {
        var channelEmotes: [Skippable<BTTVEmote>]?
        var sharedEmotes: [Skippable<BTTVEmote>]?
    }

    // MARK: FrankerFaceZ

    struct FFZSets: Decodable {
        var defaultSets: [Int]?
        var sets: [String: Skippable<FFZSet>]?
        enum CodingKeys: String, CodingKey {
            case defaultSets = "default_sets"
            case sets
        }

        /// The global answer also lists sets only some users see: only `default_sets` are everyone's.
        func entries(onlyDefault: Bool) -> [Entry] {
            let wanted = onlyDefault ? defaultSets.map { Set($0.map(String.init)) } : nil
            return (sets ?? [:]).sorted { $0.key < $1.key }.flatMap { key, set -> [Entry] in
                guard wanted?.contains(key) ?? true else { return [] }
                return (set.value?.emoticons ?? []).compactMap { $0.value?.entry }
            }
        }
    }

    struct FFZSet: Decodable { var emoticons: [Skippable<FFZEmote>]? }

    struct FFZEmote: Decodable {
        var name: String?
        var urls: [String: String]?
        var entry: Entry? {
            // "2" is the 2× image (up to 64 px); a set may only have "1" or "4".
            guard let code = emoteCode(name), let urls,
                  let url = secureURL(urls["2"] ?? urls["1"] ?? urls["4"], hosts: Provider.frankerFaceZ.pictureHosts) else { return nil }
            return Entry(code: code, url: url)
        }
    }

    // MARK: 7TV

    struct SevenTVUser: Decodable {
        var emoteSet: SevenTVSet?
        enum CodingKeys: String, CodingKey { case emoteSet = "emote_set" }
    }

    struct SevenTVSet: Decodable {
        var emotes: [Skippable<SevenTVEmote>]?
        var entries: [Entry] { (emotes ?? []).compactMap { $0.value?.entry } }
    }

    struct SevenTVEmote: Decodable {
        /// The name in this set (an alias may differ from the emote's own name).
        var name: String?
        var data: Details?
        struct Details: Decodable { var host: Host? }
        struct Host: Decodable { var url: String? }
        var entry: Entry? {
            guard let code = emoteCode(name), let host = secureURL(data?.host?.url, hosts: Provider.sevenTV.pictureHosts),
                  !host.hasSuffix("/") else { return nil }
            return Entry(code: code, url: host + "/2x.webp")
        }
    }

    // MARK: Checks

    /// Codes are single words; longer ones than this are not emotes anyone types.
    static let maxCodeScalars = 100

    static func emoteCode(_ code: String?) -> String? {
        guard let code, !code.isEmpty, code.unicodeScalars.count <= maxCodeScalars,
              !code.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return code
    }

    /// An image URL as https: protocol-relative `//cdn…` (FFZ, 7TV) gets `https:`; anything
    /// but https, or with spaces or controls, is refused, so nothing can name a local file.
    /// With `hosts`, only URLs on the provider's own picture CDN (issue 19: an API answer
    /// naming 127.0.0.1 or a LAN host is refused here).
    static func secureURL(_ url: String?, hosts: [String]? = nil) -> String? {
        guard var url, url.utf8.count <= 1024 else { return nil }
        if url.hasPrefix("//") { url = "https:" + url }
        guard url.lowercased().hasPrefix("https://"), url.utf8.count > "https://".utf8.count,
              !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" })
        else { return nil }
        if let hosts, !PictureHosts.allows(url, hosts: hosts) { return nil }
        return url
    }

    /// BetterTTV's ids are hex; letters, digits and `_` only, so the id can stand in the URL.
    static func isPlainID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.unicodeScalars.allSatisfy {
            $0.isASCII && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    /// An array element of another shape decodes to nil instead of failing the list.
    struct Skippable<Value: Decodable>: Decodable {
        var value: Value?
        init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
    }
}
