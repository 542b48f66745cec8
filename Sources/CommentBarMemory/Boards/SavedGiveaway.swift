// SPDX-License-Identifier: GPL-2.0-or-later

/// A giveaway as the memory keeps it: the last one of a source is restored after a restart, and
/// every one stays with every draw (`commentbar giveaway list`).
public struct SavedGiveaway: Sendable, Equatable {
    /// The renderer's own number for it (see `SavedPoll.token`).
    public var token: Int64
    public var source: String
    public var word: String
    public var minimumComments: Int
    public var firstTimeViewers: Bool
    public var startedAt: Double
    public var closesAt: Double?
    public var closedAt: Double?
    /// Its last winner was taken off the bar (until the next draw).
    public var dismissed: Bool
    /// In the order they entered.
    public var entrants: [SavedEntrant]
    /// Every winner drawn, in order, with the draw's time.
    public var draws: [SavedEntrant]
    /// The file's number for it; nil in what the renderer writes.
    public var id: Int64?

    public init(token: Int64, source: String, word: String, minimumComments: Int, firstTimeViewers: Bool, startedAt: Double,
                closesAt: Double?, closedAt: Double?, dismissed: Bool = false, entrants: [SavedEntrant] = [],
                draws: [SavedEntrant] = [], id: Int64? = nil) {
        self.token = token
        self.source = source
        self.word = word
        self.minimumComments = minimumComments
        self.firstTimeViewers = firstTimeViewers
        self.startedAt = startedAt
        self.closesAt = closesAt
        self.closedAt = closedAt
        self.dismissed = dismissed
        self.entrants = entrants
        self.draws = draws
        self.id = id
    }
}

/// A viewer who entered (`at`: when) or was drawn (`at`: the draw's time).
public struct SavedEntrant: Sendable, Equatable {
    public var viewer: ViewerKey
    public var name: String
    public var at: Double

    public init(viewer: ViewerKey, name: String, at: Double) {
        self.viewer = viewer
        self.name = name
        self.at = at
    }
}
