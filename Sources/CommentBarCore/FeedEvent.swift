// SPDX-License-Identifier: GPL-2.0-or-later
/// A normalized event from any comment feed: what the bar reacts to.
/// Every service's feed produces these (`commentbar services` lists the services); the JSON form
/// is documented in docs/feed-protocol.md and parsed by `FeedEventJSON`.
public enum FeedEvent: Sendable, Equatable {
    /// The stream started at `time` (unix seconds): the clock shows time elapsed since.
    case start(time: Double)
    case comment(ChatLine)
    case gift(ChatLine)
    case viewers(Int)
    case mic(on: Bool)
    /// Removes the line with this id (a moderator deleted it).
    case delete(id: String)
    /// Removes every line by this user (a timeout or ban).
    case deleteUser(user: String)
    /// Removes every line.
    case clear
    /// The streamer's avatar, or nil for the default one.
    case avatar(ImageReference?)
    /// The picture behind the avatar, or nil for the default one.
    case background(ImageReference?)
    /// The state of the feed's own connection: the bar's status pill.
    case status(FeedStatus)
    /// A state a relay reports about its upstream: shown as text beside the pill, never as
    /// the pill itself, so a relay cannot pin a fake state while comments flow.
    case relayStatus(FeedStatus)
    /// The channel the stream belongs to, named by the platform, where the stream id the streamer
    /// typed is not the channel (a YouTube video, a niconico programme, an OPENREC broadcast):
    /// the viewer memory keeps viewers, 初見 and nicknames per channel, so every stream of one
    /// channel is the same channel. A feed sends it before its first comment and its `live`
    /// status (`FeedEvent.channelID` bounds it); the bar shows nothing of it.
    case channel(id: String)

    /// A channel id as a feed may name one: 1…`maxIDScalars` scalars, none of them a space, a
    /// control or an invisible format character (an id is a key, never text to show); nil otherwise.
    public static func channelID(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        guard (1...TextSanitizer.maxIDScalars).contains(scalars.count),
              scalars.allSatisfy({ scalar in
                  switch scalar.properties.generalCategory {
                  case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
                       .surrogate, .privateUse:
                      false
                  default:
                      true
                  }
              })
        else { return nil }
        return text
    }
}

/// Where an image comes from. Network feeds may name only `https` URLs (fetched with
/// caps); local files come only from the source settings and the `file` and `demo`
/// services, so a hostile relay can neither show nor probe the streamer's files.
public enum ImageReference: Sendable, Equatable, Hashable, CustomStringConvertible {
    case file(path: String)
    case remote(url: String)

    /// `https://…` is remote; any other `scheme://` is refused; anything else is a file path.
    /// Empty text is no image.
    public static func parse(_ text: String) throws(FeedEventJSON.ParseError) -> ImageReference? {
        if text.isEmpty { return nil }
        if let schemeEnd = text.firstRange(of: "://") {
            let scheme = text[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "https" else {
                throw FeedEventJSON.ParseError("image URLs must be https:// (got \(scheme)://)")
            }
            return .remote(url: text)
        }
        return .file(path: text)
    }

    public var isLocalFile: Bool {
        if case .file = self { return true }
        return false
    }

    /// The text form, as in the feed JSON.
    public var description: String {
        switch self {
        case .file(let path): return path
        case .remote(let url): return url
        }
    }
}

/// The state of the connection to the comment feed, shown on the bar.
public enum FeedStatus: Sendable, Equatable {
    case connecting
    case live
    case reconnecting(reason: String)
    case error(message: String)
    case paused
    /// The stream is not live yet (a channel that has not started, a programme before its
    /// start): the feed checks again by itself and joins when it starts.
    case waiting(reason: String)
    /// The stream is over: no more chat will come.
    case ended(reason: String)

    public var label: String {
        switch self {
        case .reconnecting(let reason) where !reason.isEmpty: return "reconnecting: \(reason)"
        case .error(let message) where !message.isEmpty: return "error: \(message)"
        case .waiting(let reason) where !reason.isEmpty: return "waiting: \(reason)"
        case .ended(let reason) where !reason.isEmpty: return "ended: \(reason)"
        default: return name
        }
    }

    /// The state's name alone (the wire form's `state`).
    public var name: String {
        switch self {
        case .connecting: return "connecting"
        case .live: return "live"
        case .reconnecting: return "reconnecting"
        case .error: return "error"
        case .paused: return "paused"
        case .waiting: return "waiting"
        case .ended: return "ended"
        }
    }

    /// The text a state carries beside its name, if any.
    public var detail: String {
        switch self {
        case .reconnecting(let text), .error(let text), .waiting(let text), .ended(let text): return text
        case .connecting, .live, .paused: return ""
        }
    }
}

/// One row of the bar: a comment, a `/me` action, a system notice (sub, raid) or a gift.
public struct ChatLine: Sendable, Equatable, Identifiable {
    public enum Kind: Sendable, Equatable {
        case comment
        case action
        case notice
        case gift(name: String, count: Int)
    }

    public var id: String
    /// The name shown; `login` identifies the user for `deleteUser` when it differs.
    public var user: String
    public var login: String?
    public var text: String
    public var color: RGBColor?
    public var badges: [String]
    public var kind: Kind
    /// A row that stands out (a paid message's tier colour, a mention): drawn on a tinted pill.
    public var highlight: RGBColor?
    /// The service the row came from, when the bar reads several (its id).
    public var platform: String?
    /// That service's mark, drawn before the name.
    public var platformBadge: PlatformBadge?
    /// Images standing for runs of `text`, kept only where they match it (`Emote.valid`).
    public var emotes: [Emote] {
        didSet { if emotes != oldValue { emotes = Emote.valid(emotes, in: text) } }
    }
    /// When the viewer sent it (unix seconds), where the platform says: a poll's burst is
    /// replayed spread by these times (`ChatFlow`). Nil: shown as it arrives.
    public var sentAt: Double?
    /// When the bar received it, on the stream's clock (unix seconds), where that is known (a
    /// replay's moment: `FeedTimeline`). A row already on the bar when its motion starts is as old
    /// as this says, so a replay rendered at a moment shows the rows faded that a live bar would
    /// have faded by then (`RowMotion`). Nil: as old as the first frame that shows it.
    public var arrivedAt: Double?
    /// Said before the bar connected (the platform's recent messages on join): shown at once,
    /// never a first message, never spoken.
    public var isHistory: Bool
    /// The platform says this is the viewer's first message ever in the channel (Twitch's
    /// `first-msg` tag): the viewer memory's first-time badge, with or without the memory.
    public var platformFirstMessage: Bool
    /// What the viewer memory (issue 29) adds: the viewer's nickname on this channel, shown
    /// instead of `user` on the bar, the overlay and in speech (`shownName`)…
    public var nickname: String? {
        didSet { nickname = nickname.map { TextSanitizer.clean($0, limit: TextSanitizer.maxNameScalars) } }
    }
    /// …small labels drawn as pills before the name (first time, back, the comment number)…
    public var marks: [RowMark] = []
    /// …and the channel the row came from as the memory keys it (the stream id, or the channel
    /// the feed named), so a viewer can be named as (platform, channel, user).
    public var channel: String?
    /// …and the voice speech reads the viewer in, when the streamer gave them one (an engine's
    /// voice: `en+f3`, a VOICEVOX speaker id…; `speech_voices`).
    public var voice: String?
    /// …and on how many of the channel's earlier streams the memory saw the viewer (a 参加型
    /// queue's "regulars only"); nil: the memory is off or could not read them.
    public var earlierStreams: Int?

    /// The name the bar shows and speech reads: the nickname, else the display name.
    public var shownName: String { nickname ?? user }

    public init(id: String, user: String, login: String? = nil, text: String, color: RGBColor? = nil,
                badges: [String] = [], kind: Kind = .comment, highlight: RGBColor? = nil, emotes: [Emote] = [],
                sentAt: Double? = nil, isHistory: Bool = false, platformFirstMessage: Bool = false) {
        // Every string is bounded: 200 kept lines must not hold megabytes.
        self.id = String(id.unicodeScalars.prefix(TextSanitizer.maxIDScalars))
        self.user = TextSanitizer.clean(user, limit: TextSanitizer.maxNameScalars)
        self.login = login.map { String($0.unicodeScalars.prefix(TextSanitizer.maxNameScalars)) }
        self.text = TextSanitizer.clean(text, limit: TextSanitizer.maxTextScalars)
        self.color = color
        self.badges = badges.prefix(8).map { String($0.unicodeScalars.prefix(TextSanitizer.maxNameScalars)) }
        if case .gift(let name, let count) = kind {
            self.kind = .gift(name: TextSanitizer.clean(name, limit: TextSanitizer.maxNameScalars), count: count)
        } else {
            self.kind = kind
        }
        self.highlight = highlight
        self.emotes = Emote.valid(emotes, in: self.text)
        self.sentAt = sentAt.flatMap { $0.isFinite && $0 >= 0 && $0 <= Self.latestSentAt ? $0 : nil }
        self.isHistory = isHistory
        self.platformFirstMessage = platformFirstMessage
    }

    /// The latest send time believed (year 2286): anything beyond is no time at all.
    public static let latestSentAt = 10_000_000_000.0
}

/// A small label drawn as a pill before a row's name (the viewer memory's badges).
public struct RowMark: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The viewer's first comment ever on the channel (初見).
        case firstTime
        /// Back after a long time (おかえり).
        case back
        /// The viewer's comment number on the channel (`#12`).
        case count
    }

    public var kind: Kind
    public var text: String

    /// At most this many characters of a label are drawn.
    public static let maxScalars = 16

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = TextSanitizer.clean(text, limit: Self.maxScalars)
    }
}

public struct RGBColor: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (or `rrggbb`); nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        self.init(red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// From OBS's colour integers, which are 0xAABBGGRR.
    public init(obsABGR value: UInt32) {
        self.init(red: UInt8(value & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8((value >> 16) & 0xFF))
    }

    public var hex: String {
        let value = (UInt32(red) << 16) | (UInt32(green) << 8) | UInt32(blue)
        let digits = String(value, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
