// SPDX-License-Identifier: GPL-2.0-or-later

/// An open 参加型 queue as the memory keeps it (one per source; a closed queue is no row): its
/// rules and words, who waits in order, who plays, and each account's times played.
public struct SavedQueue: Sendable, Equatable {
    public var capacity: Int
    public var firstTimeFirst: Bool
    public var minimumStreamsSeen: Int
    public var membersOnly: Bool
    /// The words as the queue compares them (folded).
    public var joinWords: [String]
    public var leaveWords: [String]
    public var waiting: [SavedQueueEntry]
    public var playing: [SavedQueueEntry]
    /// Times each account was called in this queue's life (those gone from it too).
    public var timesPlayed: [ViewerKey: Int]

    public init(capacity: Int, firstTimeFirst: Bool, minimumStreamsSeen: Int, membersOnly: Bool, joinWords: [String],
                leaveWords: [String], waiting: [SavedQueueEntry], playing: [SavedQueueEntry], timesPlayed: [ViewerKey: Int]) {
        self.capacity = capacity
        self.firstTimeFirst = firstTimeFirst
        self.minimumStreamsSeen = minimumStreamsSeen
        self.membersOnly = membersOnly
        self.joinWords = joinWords
        self.leaveWords = leaveWords
        self.waiting = waiting
        self.playing = playing
        self.timesPlayed = timesPlayed
    }
}

public struct SavedQueueEntry: Sendable, Equatable {
    public var viewer: ViewerKey
    public var name: String
    public var played: Int
    public var firstTime: Bool

    public init(viewer: ViewerKey, name: String, played: Int, firstTime: Bool) {
        self.viewer = viewer
        self.name = name
        self.played = played
        self.firstTime = firstTime
    }
}
