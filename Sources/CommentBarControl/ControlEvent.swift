// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// One event of the event API (`GET /api/events`, one JSON object per WebSocket message):
/// `{"version":1,"type":"comment","seq":12,…}`. `seq` counts the events of one server's life
/// (1, 2, 3…), so a client can tell what it missed (`GET /api/comments?since=SEQ`); the other
/// keys depend on `type` (docs/control-api.md). Clients ignore types and keys they do not know.
public struct ControlEvent: Sendable, Equatable, Codable {
    /// The wire format's version: a change that breaks a client gets a new one.
    public static let version = 1

    public var seq: Int
    public var body: Body

    public enum Body: Sendable, Equatable {
        case comment(Comment)
        case gift(Comment)
        /// A moderator deleted one comment.
        case delete(Delete)
        /// A viewer's comments were all removed (a ban or a timeout).
        case ban(Ban)
        /// Every comment of a stream was removed.
        case clear(StreamRef)
        case viewers(Viewers)
        case pin(Pin)
        case status(Status)
        case speech(Speech)
        /// A stream's feed named the channel it belongs to: its events name that channel from now on.
        case channel(Channel)
        case pollStarted(ControlPoll)
        case pollVote(PollVote)
        case pollClosed(ControlPoll)
        /// The streamer took the closed poll's result off the bar.
        case pollDismissed(ControlPoll)
        case queueJoin(QueueJoin)
        case queueLeave(QueueViewer)
        case queueNext(QueueNext)
        /// The streamer opened or closed the queue, marked the players done or moved someone.
        case queueChanged(ControlQueue)
        case giveawayStarted(ControlGiveaway)
        case giveawayEntry(GiveawayViewer)
        case giveawayWinner(GiveawayViewer)
        case giveawayDismissed(ControlGiveaway)

        public var type: String {
            switch self {
            case .comment: return "comment"
            case .gift: return "gift"
            case .delete: return "delete"
            case .ban: return "ban"
            case .clear: return "clear"
            case .viewers: return "viewers"
            case .pin: return "pin"
            case .status: return "status"
            case .speech: return "speech"
            case .channel: return "channel"
            case .pollStarted: return "poll_started"
            case .pollVote: return "poll_vote"
            case .pollClosed: return "poll_closed"
            case .pollDismissed: return "poll_dismissed"
            case .queueJoin: return "queue_join"
            case .queueLeave: return "queue_leave"
            case .queueNext: return "queue_next"
            case .queueChanged: return "queue_changed"
            case .giveawayStarted: return "giveaway_started"
            case .giveawayEntry: return "giveaway_entry"
            case .giveawayWinner: return "giveaway_winner"
            case .giveawayDismissed: return "giveaway_dismissed"
            }
        }
    }

    public init(seq: Int, body: Body) {
        self.seq = seq
        self.body = body
    }

    /// A comment or a gift, as the bar showed it (filtered, NG words masked).
    public struct Comment: Sendable, Equatable, Codable {
        /// The id `POST /api/pin` takes (the bar's row id: `N/…` when the bar reads several streams).
        public var id: String
        /// The service id (`twitch`, `youtube`…) and the stream's id on it.
        public var platform: String
        public var channel: String
        /// The platform's colour, for a mark beside the name (`#rrggbb`).
        public var platformColour: String
        /// Who wrote it: the login where the platform has one, else the name (what `/api/viewer` takes).
        public var user: String
        /// The name shown.
        public var name: String
        /// The viewer's nickname on this channel, if they have one (the viewer memory).
        public var nickname: String?
        /// The viewer's first comment ever on this channel (the viewer memory).
        public var firstTime: Bool
        /// Back after `welcome_back_days` or more without a comment (the viewer memory).
        public var welcomeBack: Bool
        public var text: String
        public var emotes: [Emote]
        /// The name's colour (`#rrggbb`), where the platform or the streamer gave one.
        public var colour: String?
        public var badges: [String]
        /// `comment`, `action` (/me), `notice` (a sub, a raid), `gift`.
        public var kind: String
        /// For gifts: what was given, and how many.
        public var gift: String?
        public var count: Int?
        /// Said before the bar connected (the platform's recent messages).
        public var history: Bool
        /// When it was sent (unix seconds): the platform's time, else when it was shown.
        public var time: Double

        public init(id: String, platform: String, channel: String, platformColour: String, user: String, name: String,
                    nickname: String? = nil, firstTime: Bool = false, welcomeBack: Bool = false, text: String, emotes: [Emote] = [],
                    colour: String? = nil, badges: [String] = [], kind: String = "comment", gift: String? = nil,
                    count: Int? = nil, history: Bool = false, time: Double) {
            self.id = id
            self.platform = platform
            self.channel = channel
            self.platformColour = platformColour
            self.user = user
            self.name = name
            self.nickname = nickname
            self.firstTime = firstTime
            self.welcomeBack = welcomeBack
            self.text = text
            self.emotes = emotes
            self.colour = colour
            self.badges = badges
            self.kind = kind
            self.gift = gift
            self.count = count
            self.history = history
            self.time = time
        }

        enum CodingKeys: String, CodingKey {
            case id, platform, channel, user, name, nickname, text, emotes, colour, badges, kind, gift, count, history, time
            case platformColour = "platform_colour"
            case firstTime = "first_time"
            case welcomeBack = "welcome_back"
        }

        /// `nickname` and `colour` are always there (null when none), so a client can rely on them.
        public func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(id, forKey: .id)
            try keyed.encode(platform, forKey: .platform)
            try keyed.encode(channel, forKey: .channel)
            try keyed.encode(platformColour, forKey: .platformColour)
            try keyed.encode(user, forKey: .user)
            try keyed.encode(name, forKey: .name)
            try keyed.encode(nickname, forKey: .nickname)
            try keyed.encode(firstTime, forKey: .firstTime)
            try keyed.encode(welcomeBack, forKey: .welcomeBack)
            try keyed.encode(text, forKey: .text)
            try keyed.encode(emotes, forKey: .emotes)
            try keyed.encode(colour, forKey: .colour)
            try keyed.encode(badges, forKey: .badges)
            try keyed.encode(kind, forKey: .kind)
            try keyed.encodeIfPresent(gift, forKey: .gift)
            try keyed.encodeIfPresent(count, forKey: .count)
            try keyed.encode(history, forKey: .history)
            try keyed.encode(time, forKey: .time)
        }
    }

    /// An emote: the run of `text` it stands for, in Unicode scalar offsets (`end` exclusive).
    public struct Emote: Sendable, Equatable, Codable {
        public var start: Int
        public var end: Int
        public var name: String
        public var url: String

        public init(start: Int, end: Int, name: String, url: String) {
            self.start = start
            self.end = end
            self.name = name
            self.url = url
        }
    }

    /// The stream an event is about.
    public struct StreamRef: Sendable, Equatable, Codable {
        public var platform: String
        public var channel: String

        public init(platform: String, channel: String) {
            self.platform = platform
            self.channel = channel
        }
    }

    public struct Delete: Sendable, Equatable, Codable {
        public var id: String
        public var platform: String
        public var channel: String

        public init(id: String, platform: String, channel: String) {
            self.id = id
            self.platform = platform
            self.channel = channel
        }
    }

    public struct Ban: Sendable, Equatable, Codable {
        public var user: String
        public var platform: String
        public var channel: String

        public init(user: String, platform: String, channel: String) {
            self.user = user
            self.platform = platform
            self.channel = channel
        }
    }

    public struct Viewers: Sendable, Equatable, Codable {
        public var platform: String
        public var channel: String
        public var count: Int

        public init(platform: String, channel: String, count: Int) {
            self.platform = platform
            self.channel = channel
            self.count = count
        }
    }

    /// A pin came (`pinned` true, with the comment) or went (false: unpinned, deleted, time up).
    public struct Pin: Sendable, Equatable, Codable {
        public var id: String
        public var pinned: Bool
        public var comment: Comment?
        /// When the pin ends (unix seconds); absent: when unpinned.
        public var until: Double?

        public init(id: String, pinned: Bool, comment: Comment? = nil, until: Double? = nil) {
            self.id = id
            self.pinned = pinned
            self.comment = comment
            self.until = until
        }
    }

    /// A stream's connection: `state` is connecting, live, reconnecting, error, paused, waiting or ended.
    public struct Status: Sendable, Equatable, Codable {
        public var platform: String
        public var channel: String
        public var state: String
        public var detail: String

        public init(platform: String, channel: String, state: String, detail: String) {
            self.platform = platform
            self.channel = channel
            self.state = state
            self.detail = detail
        }
    }

    /// Reading aloud was skipped, paused or resumed (from the page, the API or a hotkey).
    public struct Speech: Sendable, Equatable, Codable {
        /// `skip`, `pause` or `resume`.
        public var action: String

        public init(action: String) { self.action = action }
    }

    /// The stream the streamer typed (`stream`: a YouTube video, a niconico programme…) belongs to
    /// `channel` (YouTube's `UC…`, niconico's `ch…` or `user/…`): the viewer memory's channel.
    public struct Channel: Sendable, Equatable, Codable {
        public var platform: String
        public var channel: String
        public var stream: String

        public init(platform: String, channel: String, stream: String) {
            self.platform = platform
            self.channel = channel
            self.stream = stream
        }
    }

    enum EnvelopeKeys: String, CodingKey {
        case version, type, seq
    }

    public struct WireError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The envelope's keys and the body's share one flat object.
    public func encode(to encoder: any Encoder) throws {
        var envelope = encoder.container(keyedBy: EnvelopeKeys.self)
        try envelope.encode(Self.version, forKey: .version)
        try envelope.encode(body.type, forKey: .type)
        try envelope.encode(seq, forKey: .seq)
        switch body {
        case .comment(let value), .gift(let value): try value.encode(to: encoder)
        case .delete(let value): try value.encode(to: encoder)
        case .ban(let value): try value.encode(to: encoder)
        case .clear(let value): try value.encode(to: encoder)
        case .viewers(let value): try value.encode(to: encoder)
        case .pin(let value): try value.encode(to: encoder)
        case .status(let value): try value.encode(to: encoder)
        case .speech(let value): try value.encode(to: encoder)
        case .channel(let value): try value.encode(to: encoder)
        case .pollStarted(let value), .pollClosed(let value), .pollDismissed(let value): try value.encode(to: encoder)
        case .pollVote(let value): try value.encode(to: encoder)
        case .queueJoin(let value): try value.encode(to: encoder)
        case .queueLeave(let value): try value.encode(to: encoder)
        case .queueNext(let value): try value.encode(to: encoder)
        case .queueChanged(let value): try value.encode(to: encoder)
        case .giveawayStarted(let value), .giveawayDismissed(let value): try value.encode(to: encoder)
        case .giveawayEntry(let value), .giveawayWinner(let value): try value.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let envelope = try decoder.container(keyedBy: EnvelopeKeys.self)
        seq = try envelope.decode(Int.self, forKey: .seq)
        let type = try envelope.decode(String.self, forKey: .type)
        switch type {
        case "comment": body = .comment(try Comment(from: decoder))
        case "gift": body = .gift(try Comment(from: decoder))
        case "delete": body = .delete(try Delete(from: decoder))
        case "ban": body = .ban(try Ban(from: decoder))
        case "clear": body = .clear(try StreamRef(from: decoder))
        case "viewers": body = .viewers(try Viewers(from: decoder))
        case "pin": body = .pin(try Pin(from: decoder))
        case "status": body = .status(try Status(from: decoder))
        case "speech": body = .speech(try Speech(from: decoder))
        case "channel": body = .channel(try Channel(from: decoder))
        case "poll_started": body = .pollStarted(try ControlPoll(from: decoder))
        case "poll_vote": body = .pollVote(try PollVote(from: decoder))
        case "poll_closed": body = .pollClosed(try ControlPoll(from: decoder))
        case "poll_dismissed": body = .pollDismissed(try ControlPoll(from: decoder))
        case "queue_join": body = .queueJoin(try QueueJoin(from: decoder))
        case "queue_leave": body = .queueLeave(try QueueViewer(from: decoder))
        case "queue_next": body = .queueNext(try QueueNext(from: decoder))
        case "queue_changed": body = .queueChanged(try ControlQueue(from: decoder))
        case "giveaway_started": body = .giveawayStarted(try ControlGiveaway(from: decoder))
        case "giveaway_entry": body = .giveawayEntry(try GiveawayViewer(from: decoder))
        case "giveaway_winner": body = .giveawayWinner(try GiveawayViewer(from: decoder))
        case "giveaway_dismissed": body = .giveawayDismissed(try ControlGiveaway(from: decoder))
        default: throw WireError(description: "unknown event type \(type)")
        }
    }

    /// The event as one JSON text (UTF-8); nil only if a number cannot be written (not finite).
    public func json() -> [UInt8]? {
        try? Array(JSONEncoder().encode(self))
    }
}
