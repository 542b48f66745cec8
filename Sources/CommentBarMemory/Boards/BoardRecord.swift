// SPDX-License-Identifier: GPL-2.0-or-later

/// One change of a source's boards for the memory's writer (`ChatMemory.keep`): queued in the
/// order the boards made them, written with the chat log's batches, never on the caller's thread.
public enum BoardRecord: Sendable {
    /// The poll's row (made, or its close and dismissal updated) and the ballots it carries
    /// (none for a start or a close; all of them when a running poll is written to a new file).
    case poll(SavedPoll)
    /// One vote counted or moved, for the poll of this token.
    case ballot(poll: Int64, SavedBallot)
    /// The source's queue as it is now (nil: closed, its list gone; each account's times played
    /// stay).
    case queue(source: String, SavedQueue?)
    /// Each account's times played in the source's queues, told when its queue closed: the
    /// writer keeps only a batch's last `queue` of a source, so the closed one's counts come
    /// apart from it, for the next queue (after a restart too).
    case timesPlayed(source: String, [ViewerKey: Int])
    /// The giveaway's row, and the entrants and draws it carries (as for `poll`).
    case giveaway(SavedGiveaway)
    /// A viewer entered the giveaway of this token (`number`: 1-based, in order).
    case entrant(giveaway: Int64, number: Int, SavedEntrant)
    /// A winner drawn (`number`: the draw's, 1-based).
    case draw(giveaway: Int64, number: Int, SavedEntrant)
}

/// What the memory holds of one source's boards, to restore them.
public struct SavedBoards: Sendable, Equatable {
    public var poll: SavedPoll?
    public var queue: SavedQueue?
    public var giveaway: SavedGiveaway?
    /// Each account's times played in the source's queues (the open one's, and those closed
    /// before): a queue opened after a restart counts on from them.
    public var timesPlayed: [ViewerKey: Int]
    /// Each viewer's comments on the streams going on (`ChatReader.commentsOnStreamsGoingOn`): a
    /// renderer that starts again mid-stream counts what was said before it for a giveaway's rules.
    public var commentsThisStream: [ViewerKey: Int]

    public init(poll: SavedPoll? = nil, queue: SavedQueue? = nil, giveaway: SavedGiveaway? = nil,
                timesPlayed: [ViewerKey: Int] = [:], commentsThisStream: [ViewerKey: Int] = [:]) {
        self.poll = poll
        self.queue = queue
        self.giveaway = giveaway
        self.timesPlayed = timesPlayed
        self.commentsThisStream = commentsThisStream
    }
}
