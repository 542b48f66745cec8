// SPDX-License-Identifier: GPL-2.0-or-later

/// The 参加型 queue as the control API and the event API give it (`GET /api/queue`): whether it is
/// open, its capacity, who plays now and who waits, in order.
public struct ControlQueue: Sendable, Equatable, Codable {
    /// One viewer, named as the events name viewers; `count`: times they played before.
    public struct Entry: Sendable, Equatable, Codable {
        public var platform: String
        public var channel: String
        public var user: String
        public var name: String
        public var count: Int

        public init(platform: String, channel: String, user: String, name: String, count: Int) {
            self.platform = platform
            self.channel = channel
            self.user = user
            self.name = name
            self.count = count
        }
    }

    public var open: Bool
    public var capacity: Int
    /// Its rules: first-time viewers first, regulars only (seen on at least this many earlier
    /// streams; 0: anyone), members only.
    public var firstTimeFirst: Bool
    public var minStreams: Int
    public var membersOnly: Bool
    public var playing: [Entry]
    public var waiting: [Entry]

    public init(open: Bool, capacity: Int, firstTimeFirst: Bool = false, minStreams: Int = 0, membersOnly: Bool = false,
                playing: [Entry], waiting: [Entry]) {
        self.open = open
        self.capacity = capacity
        self.firstTimeFirst = firstTimeFirst
        self.minStreams = minStreams
        self.membersOnly = membersOnly
        self.playing = playing
        self.waiting = waiting
    }

    /// No queue: what `GET /api/queue` and `queue_changed` say while it is closed.
    public static let closed = ControlQueue(open: false, capacity: 0, playing: [], waiting: [])

    enum CodingKeys: String, CodingKey {
        case open, capacity, playing, waiting
        case firstTimeFirst = "first_time_first"
        case minStreams = "min_streams"
        case membersOnly = "members_only"
    }
}

/// `POST /api/queue/open`: its capacity (1–500, default 50), whether first-time viewers go first,
/// and the join and leave words (defaults `!join`/`!参加` and `!leave`/`!キャンセル`).
public struct QueueOpen: Sendable, Equatable, Codable {
    public var capacity: Int?
    public var firstTimeFirst: Bool?
    /// Regulars only: seen on at least this many of the channel's earlier streams.
    public var minStreams: Int?
    /// Members or subscribers only, where the platform says who is one.
    public var membersOnly: Bool?
    public var join: [String]?
    public var leave: [String]?

    /// The most earlier streams a rule may ask for.
    public static let minStreamsRange = 0...1000

    public init(capacity: Int? = nil, firstTimeFirst: Bool? = nil, minStreams: Int? = nil, membersOnly: Bool? = nil,
                join: [String]? = nil, leave: [String]? = nil) {
        self.capacity = capacity
        self.firstTimeFirst = firstTimeFirst
        self.minStreams = minStreams
        self.membersOnly = membersOnly
        self.join = join
        self.leave = leave
    }

    enum CodingKeys: String, CodingKey {
        case capacity, join, leave
        case firstTimeFirst = "first_time_first"
        case minStreams = "min_streams"
        case membersOnly = "members_only"
    }
}

public enum QueueOpenOutcome: Sendable, Equatable {
    case opened(ControlQueue)
    /// Why not, in words (words too many or too long, or no queue here).
    case refused(String)
}

/// `POST /api/queue/remove`: the viewer, as the events name them.
public struct QueueViewer: Sendable, Equatable, Codable {
    public var platform: String
    public var channel: String
    public var user: String

    public init(platform: String, channel: String, user: String) {
        self.platform = platform
        self.channel = channel
        self.user = user
    }
}

/// `POST /api/queue/move`'s `place` (1-based) in the waiting line, beside the viewer's fields
/// (`QueueViewer`, read from the same body).
struct QueuePlace: Decodable {
    var place: Int
}

extension ControlEvent {
    /// A viewer joined the queue, at `place` (1-based) among those waiting.
    public struct QueueJoin: Sendable, Equatable, Codable {
        public var entry: ControlQueue.Entry
        public var place: Int

        public init(entry: ControlQueue.Entry, place: Int) {
            self.entry = entry
            self.place = place
        }
    }

    /// The streamer called the next ones: they play now.
    public struct QueueNext: Sendable, Equatable, Codable {
        public var called: [ControlQueue.Entry]

        public init(called: [ControlQueue.Entry]) { self.called = called }
    }
}
