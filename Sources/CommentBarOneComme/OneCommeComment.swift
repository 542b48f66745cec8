// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Glibc

/// A comment as OneComme's local API gives it to templates (OneComme/OneSDK's `Comment` type: the
/// connection's `id`, `service`, `name`, `url`, `color` and `meta`, and the comment in `data`),
/// made from a row as the bar shows it: filtered, NG words masked, the memory's nickname and
/// first-time badge on it.
public struct OneCommeComment: Sendable, Equatable, Encodable {
    public struct Color: Sendable, Equatable, Encodable {
        var r: Int
        var g: Int
        var b: Int
    }

    /// The viewer's place in the channel's memory: `tc` their comment count (the memory's `#N`).
    public struct Meta: Sendable, Equatable, Encodable {
        var tc: Int?
    }

    public struct Badge: Sendable, Equatable, Encodable {
        var url: String
        var label: String
    }

    /// A paid row's colours, as OneComme's `colors` (and `getCommentStyle`) use them.
    public struct Colors: Sendable, Equatable, Encodable {
        var headerBackgroundColor: String
        var headerTextColor: String
        var bodyBackgroundColor: String
        var bodyTextColor: String
    }

    public struct CommentData: Sendable, Equatable, Encodable {
        var id: String
        var userId: String
        var liveId: String
        var name: String
        var displayName: String
        var nickname: String?
        /// HTML, escaped: the text as characters, emotes as `<img>` (`OneCommeHTML`).
        var comment: String
        var speechText: String
        var profileImage: String
        var badges: [Badge]
        /// ISO 8601, as OneComme's.
        var timestamp: String
        var isOwner: Bool
        var isModerator: Bool
        var isMember: Bool
        var hasGift: Bool
        var isFirstTime: Bool
        /// Back after `welcome_back_days` (the memory's おかえり).
        var isRepeater: Bool
        var paidText: String?
        var colors: Colors?
        /// What was given, for a gift that is not a paid message (SHOWROOM's, Twitch's Bits…).
        var giftName: String?
        var giftCount: Int?
    }

    /// The connection's id (`commentbar-N`, the bar's stream N), service and name.
    var id: String
    var service: String
    var name: String
    var url: String
    var color: Color
    var meta: Meta?
    var data: CommentData

    /// OneComme's service ids for ours; a service it does not know is `external`.
    static let services = ["youtube": "youtube", "twitch": "twitch", "niconico": "niconama", "twitcasting": "twicas",
                           "showroom": "showroom", "mirrativ": "mirrativ", "kick": "kick", "openrec": "openrec"]

    /// The row as OneComme's comment; `stream` names where it came from.
    public init(_ line: ChatLine, stream: OneCommeStream, now: Double) {
        id = stream.connectionID
        service = Self.services[stream.platform] ?? "external"
        name = stream.name
        url = stream.url
        color = Color(r: Int(stream.colour.red), g: Int(stream.colour.green), b: Int(stream.colour.blue))
        let count = line.marks.first { $0.kind == .count }.flatMap { Int($0.text.drop { !$0.isNumber }) }
        meta = count.map { Meta(tc: $0) }
        let badges = Set(line.badges.map { $0.lowercased() })
        var paidText: String?
        var colors: Colors?
        var giftName: String?
        var giftCount: Int?
        if case .gift(let gift, let given) = line.kind {
            if let highlight = line.highlight {
                // A paid message: its tier's colour, as YouTube shows it.
                paidText = gift
                let body = highlight.hex
                colors = Colors(headerBackgroundColor: body, headerTextColor: "#ffffff", bodyBackgroundColor: body,
                                bodyTextColor: "#ffffff")
            } else {
                giftName = gift
                giftCount = min(max(given, 0), FeedEventJSON.maxCount)
            }
        }
        let hasGift = if case .gift = line.kind { true } else { false }
        data = CommentData(
            id: line.id, userId: line.login ?? line.user, liveId: line.channel ?? stream.channel, name: line.user,
            displayName: line.user, nickname: line.nickname, comment: OneCommeHTML.comment(line),
            speechText: line.text, profileImage: "",
            badges: line.badges.map { Badge(url: "", label: $0) },
            timestamp: Self.timestamp(line.sentAt ?? now),
            isOwner: !badges.isDisjoint(with: ["broadcaster", "owner"]),
            isModerator: !badges.isDisjoint(with: ["moderator", "mod"]),
            isMember: !badges.isDisjoint(with: ["member", "subscriber", "founder"]),
            hasGift: hasGift, isFirstTime: line.marks.contains { $0.kind == .firstTime },
            isRepeater: line.marks.contains { $0.kind == .back },
            paidText: paidText, colors: colors, giftName: giftName, giftCount: giftCount)
    }

    /// Unix seconds as ISO 8601 with milliseconds (`2026-11-28T09:15:00.000Z`).
    static func timestamp(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, min(seconds, ChatLine.latestSentAt)) : 0
        var time = time_t(whole)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int((whole - whole.rounded(.down)) * 1000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}

/// One stream of the bar as OneComme names a connection (a "service" of its list).
public struct OneCommeStream: Sendable, Equatable {
    /// `commentbar-` and 16 hex digits, from the platform and the channel (for a relay without
    /// one, the name the bar gives it): the same stream has the same id whatever its place in the
    /// list and across restarts, so a template's saved `?includeIds=` keeps matching it.
    public var connectionID: String
    /// Our service id (`youtube`), the stream's id on it, how the bar names it, and its colour.
    public var platform: String
    public var channel: String
    public var name: String
    public var url: String
    public var colour: RGBColor

    public init(platform: String, channel: String, name: String, url: String = "", colour: RGBColor) {
        connectionID = Self.stableID(platform: platform, channel: channel, name: name)
        self.platform = platform
        self.channel = channel
        self.name = name
        self.url = url
        self.colour = colour
    }

    static func stableID(platform: String, channel: String, name: String) -> String {
        let key = [platform, channel, channel.isEmpty ? name : ""].joined(separator: "\u{0}")
        return "commentbar-" + GLibSHA256.hex(Array(key.utf8)).prefix(16)
    }

    /// Before the session named its streams.
    static let unknown = OneCommeStream(platform: "", channel: "", name: "", colour: RGBColor(red: 0x88, green: 0x88, blue: 0x88))

    /// OneComme's `Service` object for `/api/services` and `connected`.
    struct Service: Sendable, Equatable, Encodable {
        struct Meta: Sendable, Equatable, Encodable {
            var viewer: Int?
            var isLive: Bool?
        }

        var id: String
        var name: String
        var url: String
        var speech = false
        var write = false
        var enabled = true
        var color: OneCommeComment.Color
        var meta: Meta?
    }
}
