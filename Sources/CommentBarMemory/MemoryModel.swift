// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// A channel the memory keeps apart: a service's id and its stream id as the streamer gave it
/// (`twitch:somechannel`, `kick:name`, `jsonws:` with the relay's address), or the channel the
/// feed named where the stream id is not the channel (`youtube:UC…`, `niconico:user/12345`:
/// `FeedEvent.channel`). Viewers, their nicknames and 初見 are per channel.
public struct ChannelRef: Hashable, Sendable, CustomStringConvertible {
    public var platform: String
    public var channel: String

    public init(platform: String, channel: String) {
        self.platform = platform
        self.channel = channel
    }

    /// `SERVICE:ID` as the CLI takes it (the id may hold more colons: a relay's URL).
    public init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let platform = text[..<colon].lowercased()
        let channel = String(text[text.index(after: colon)...])
        guard !platform.isEmpty, !channel.isEmpty else { return nil }
        self.init(platform: platform, channel: channel)
    }

    public var description: String { "\(platform):\(channel)" }
}

/// One viewer of one channel, as the event API names them: the platform, the channel, and the
/// user's account (login or user id, lower case; the display name where the platform has none).
public struct ViewerKey: Hashable, Sendable {
    public var channel: ChannelRef
    public var user: String

    public init(channel: ChannelRef, user: String) {
        self.channel = channel
        self.user = Self.userKey(user)
    }

    public init(platform: String, channel: String, user: String) {
        self.init(channel: ChannelRef(platform: platform, channel: channel), user: user)
    }

    /// The writer of a row: its account, else its display name, folded as `deleteUser` compares it.
    public init(channel: ChannelRef, line: ChatLine) {
        self.init(channel: channel, user: line.login.flatMap { $0.isEmpty ? nil : $0 } ?? line.user)
    }

    static func userKey(_ name: String) -> String { name.lowercased() }
}

/// What the memory knows of one viewer of one channel (`commentbar log viewers`).
public struct ViewerFacts: Sendable, Equatable {
    public var key: ViewerKey
    public var login: String?
    /// The display name last seen.
    public var name: String
    public var nickname: String?
    public var colour: RGBColor?
    /// The voice speech reads them in (an engine's voice name, speaker id or file), nil: as
    /// `speech_voices` casts them.
    public var voice: String?
    public var hidden: Bool
    /// Unix seconds; nil for a viewer named (`viewers set`) before they ever wrote.
    public var firstSeen: Double?
    public var lastSeen: Double?
    public var streams: Int
    public var comments: Int
    public var gifts: Int

    public init(key: ViewerKey, login: String? = nil, name: String, nickname: String? = nil, colour: RGBColor? = nil,
                voice: String? = nil, hidden: Bool = false, firstSeen: Double? = nil, lastSeen: Double? = nil, streams: Int = 0,
                comments: Int = 0, gifts: Int = 0) {
        self.key = key
        self.login = login
        self.name = name
        self.nickname = nickname
        self.colour = colour
        self.voice = voice
        self.hidden = hidden
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.streams = streams
        self.comments = comments
        self.gifts = gifts
    }
}

/// One comment or gift as the log keeps it.
public struct LoggedMessage: Sendable, Equatable {
    /// The log's own number for the row: grows with every row written (`recent(after:)`).
    public var seq: Int64
    public var session: Int64
    public var channel: ChannelRef
    /// The platform's message id (as the event API and `delete` events name it).
    public var messageID: String
    public var user: String
    public var login: String?
    public var name: String
    /// The viewer's nickname now (not when the row was written).
    public var nickname: String?
    /// `comment`, `action`, `notice` or `gift`.
    public var kind: String
    /// Nil once a moderator deleted it or banned its writer.
    public var text: String?
    public var giftName: String?
    /// A gift's size (`FeedEvent.gift`'s `count`).
    public var count: Int?
    /// When the bar received it (unix seconds).
    public var time: Double
    public var sentAt: Double?
    /// `shown`, `masked` (NG words) or `hidden`.
    public var verdict: String
    public var history: Bool
    public var firstTime: Bool
    public var deleted: Bool
}

extension LoggedMessage {
    /// The row with its viewer's nickname as the bar would show it now: NG words masked.
    func maskingNickname(_ filters: ChatFilters) -> LoggedMessage {
        var masked = self
        masked.nickname = nickname.map(filters.maskingNGWords)
        return masked
    }
}

extension ViewerFacts {
    /// The viewer with their nickname's NG words masked.
    func maskingNickname(_ filters: ChatFilters) -> ViewerFacts {
        var masked = self
        masked.nickname = nickname.map(filters.maskingNGWords)
        return masked
    }
}

/// One run of the bar on one channel.
public struct SessionInfo: Sendable, Equatable {
    public var id: Int64
    public var channel: ChannelRef
    /// Sessions of one channel that ran at once (two sources) share their stream number.
    public var stream: Int64
    public var startedAt: Double
    public var endedAt: Double?
    public var lastSeenAt: Double
    /// When OBS's recording started, if OBS recorded during the session (the first recording).
    public var recordingStart: Double?
}

/// The filters' verdict on a row, as the log keeps it.
public enum Verdict: String, Sendable {
    case shown, masked, hidden
}

/// A change to one of a viewer's fields (nickname, colour, voice): keep it, set it, or clear it.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case set(Value)
    case clear

    var isKeep: Bool { self == .keep }

    func apply(to value: Value?) -> Value? {
        switch self {
        case .keep: return value
        case .set(let new): return new
        case .clear: return nil
        }
    }

    func map(_ transform: (Value) -> Value) -> FieldChange<Value> {
        if case .set(let value) = self { return .set(transform(value)) }
        return self
    }
}
