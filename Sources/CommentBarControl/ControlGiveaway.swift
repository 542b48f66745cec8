// SPDX-License-Identifier: GPL-2.0-or-later

/// A giveaway as the control API gives it (`GET /api/giveaway`): its entry word, whether entries
/// are open, how many entered, every winner drawn, in order, and whether the last one was taken
/// off the bar (`POST /api/giveaway/dismiss`).
public struct ControlGiveaway: Sendable, Equatable, Codable {
    /// A viewer, named as the events name viewers.
    public struct Viewer: Sendable, Equatable, Codable {
        public var platform: String
        public var channel: String
        public var user: String
        public var name: String

        public init(platform: String, channel: String, user: String, name: String) {
            self.platform = platform
            self.channel = channel
            self.user = user
            self.name = name
        }
    }

    public var word: String
    public var open: Bool
    public var closesAt: Double?
    public var entries: Int
    public var winners: [Viewer]
    public var dismissed: Bool

    public init(word: String, open: Bool, closesAt: Double?, entries: Int, winners: [Viewer], dismissed: Bool = false) {
        self.word = word
        self.open = open
        self.closesAt = closesAt
        self.entries = entries
        self.winners = winners
        self.dismissed = dismissed
    }

    enum CodingKeys: String, CodingKey {
        case word, open, entries, winners, dismissed
        case closesAt = "closes_at"
    }
}

/// `POST /api/giveaway`: the entry word, and optionally how long entries stay open, the comments
/// this stream a viewer needs, and whether first-time viewers may enter.
public struct GiveawayStart: Sendable, Equatable, Codable {
    public var word: String
    public var seconds: Double?
    public var minComments: Int?
    public var firstTime: Bool?

    public init(word: String, seconds: Double? = nil, minComments: Int? = nil, firstTime: Bool? = nil) {
        self.word = word
        self.seconds = seconds
        self.minComments = minComments
        self.firstTime = firstTime
    }

    enum CodingKeys: String, CodingKey {
        case word, seconds
        case minComments = "min_comments"
        case firstTime = "first_time"
    }
}

public enum GiveawayStartOutcome: Sendable, Equatable {
    case started(ControlGiveaway)
    case refused(String)
}

extension ControlEvent {
    /// A viewer entered the giveaway (`count`: entries so far), or won draw number `draw`.
    public struct GiveawayViewer: Sendable, Equatable, Codable {
        public var viewer: ControlGiveaway.Viewer
        public var count: Int?
        public var draw: Int?

        public init(viewer: ControlGiveaway.Viewer, count: Int? = nil, draw: Int? = nil) {
            self.viewer = viewer
            self.count = count
            self.draw = draw
        }
    }
}
