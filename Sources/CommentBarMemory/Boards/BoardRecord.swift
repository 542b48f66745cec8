// SPDX-License-Identifier: GPL-2.0-or-later

/// One change of a source's boards for the memory's writer (`ChatMemory.keep`): queued in the
/// order the boards made them, written with the chat log's batches, never on the caller's thread.
public enum BoardRecord: Sendable {
    /// The poll's row (made, or its close and dismissal updated) and the ballots it carries
    /// (none for a start or a close; all of them when a running poll is written to a new file).
    case poll(SavedPoll)
    /// One vote counted or moved, for the poll of this token.
    case ballot(poll: Int64, SavedBallot)
    /// The source's queue as it is now (nil: closed, its list gone).
    case queue(source: String, SavedQueue?)
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
    /// Each viewer's comments on the streams going on (`ChatReader.commentsOnStreamsGoingOn`): a
    /// renderer that starts again mid-stream counts what was said before it for a giveaway's rules.
    public var commentsThisStream: [ViewerKey: Int]

    public init(poll: SavedPoll? = nil, queue: SavedQueue? = nil, giveaway: SavedGiveaway? = nil,
                commentsThisStream: [ViewerKey: Int] = [:]) {
        self.poll = poll
        self.queue = queue
        self.giveaway = giveaway
        self.commentsThisStream = commentsThisStream
    }
}
