// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The feed path's look-up: the viewers of the channels being read, kept in memory (bounded),
/// each read once from the log. It knows what the writer has not committed yet (a viewer's
/// second comment 50 ms after the first is not "first" again), and what another process
/// changed once told (`invalidate`).
struct ViewerBook {
    struct Entry {
        /// The log was read for this viewer (false: it could not be, so no first-time badge).
        var known: Bool
        /// The viewer wrote in the channel before this run (the log says so).
        var wroteBefore: Bool
        /// The first-time badge (or the back badge) was shown in this run.
        var greeted = false
        var lastSeen: Double?
        /// The channel's streams before this one the viewer wrote on (nil: not known).
        var earlierStreams: Int?
        var comments: Int
        var nickname: String?
        var colour: RGBColor?
        var voice: String?
        var hidden: Bool
        var generation: UInt64
        /// The writer's number of this viewer's last write: evicted only once it is committed.
        var pending: UInt64 = 0
        /// The log changed this viewer's choices (a nickname undone): read again when next seen.
        var stale = false
        /// The display name and login seen last: a nickname another viewer takes in chat is
        /// checked against them while the log does not have them yet.
        var name: String?
        var login: String?

        mutating func saw(_ line: ChatLine) {
            name = line.user
            if let login = line.login, !login.isEmpty { self.login = login }
        }
    }

    /// A nickname a row of this run set: a moderator's deletion of the row (or a ban of its
    /// writer) puts back what it replaced.
    struct NicknameRow {
        var channel: ChannelRef
        var messageID: String
        var key: ViewerKey
        var before: String?
        var set: String
    }

    private(set) var entries: [ViewerKey: Entry] = [:]
    private var generation: UInt64 = 0
    /// About 2 MB at most; the oldest committed quarter goes when it is full.
    static let maxEntries = 20_000
    /// The newest nicknames set in chat, oldest first (a deletion comes within minutes).
    private var nicknameRows: [NicknameRow] = []
    static let maxNicknameRows = 1_000

    /// Another process changed viewers: each cached viewer's choices are read again when next seen.
    mutating func invalidate() { generation &+= 1 }

    /// The viewer, from the cache or the log (`reader` nil: the log cannot be read now).
    /// `streamBegan`: when this run's session on the channel opened (unix seconds): a viewer the
    /// log saw since wrote on this stream already, which the log's count of streams includes.
    mutating func entry(_ key: ViewerKey, reader: ChatReader?, streamBegan: Double? = nil) -> Entry {
        if var cached = entries[key], cached.known || reader == nil {
            if cached.generation != generation || cached.stale, let reader, let read = Self.read(key, reader) {
                // Another process changed the file: its choices win; a viewer it forgot has none.
                cached.nickname = read?.nickname
                cached.colour = read?.colour
                cached.voice = read?.voice
                cached.hidden = read?.hidden ?? false
                cached.comments = max(cached.comments, read?.comments ?? 0)
                cached.generation = generation
                cached.stale = false
            }
            return cached
        }
        guard let reader, let read = Self.read(key, reader) else {
            return Entry(known: false, wroteBefore: false, comments: 0, hidden: false, generation: generation)
        }
        let seenThisStream = streamBegan.map { began in read?.lastSeen.map { $0 >= began } ?? false } ?? false
        return Entry(known: true, wroteBefore: read.map { $0.firstSeen != nil || $0.comments + $0.gifts > 0 } ?? false,
                     lastSeen: read?.lastSeen, earlierStreams: max(0, (read?.streams ?? 0) - (seenThisStream ? 1 : 0)),
                     comments: read?.comments ?? 0, nickname: read?.nickname,
                     colour: read?.colour, voice: read?.voice, hidden: read?.hidden ?? false, generation: generation)
    }

    /// The viewer's row (`.some(nil)`: there is none), or nil when it could not be read.
    private static func read(_ key: ViewerKey, _ reader: ChatReader) -> ViewerFacts?? {
        do {
            return .some(try reader.viewer(key))
        } catch {
            return nil
        }
    }

    /// Keeps `entry`; past the bound, forgets viewers whose writes are all committed.
    mutating func keep(_ entry: Entry, for key: ViewerKey, committed: UInt64) {
        entries[key] = entry
        guard entries.count > Self.maxEntries else { return }
        let excess = entries.count - Self.maxEntries * 3 / 4
        let victims = entries.lazy.filter { $0.value.pending <= committed }.prefix(excess).map(\.key)
        for victim in Array(victims) { entries[victim] = nil }
    }

    /// The log changed these viewers' choices (the writer undid nicknames): read again.
    mutating func refresh(_ keys: [ViewerKey]) {
        for key in keys { entries[key]?.stale = true }
    }

    /// Whether a viewer of `channel` other than `key`, whose row the writer has not committed
    /// yet (the log knows the others), goes by the name whose key is `nameKey`. Their names are
    /// folded only now: a chat's comments fold nothing.
    func someoneElse(on channel: ChannelRef, isNamed nameKey: String, not key: ViewerKey, committed: UInt64) -> Bool {
        entries.contains { other, entry in
            other.channel == channel && other != key && entry.pending > committed
                && [entry.name, entry.login].contains { $0.map(ChatFilters.nameKey) == nameKey }
        }
    }

    /// Row `messageID` set `key`'s nickname (from `before`).
    mutating func nicknameSet(by messageID: String, on channel: ChannelRef, for key: ViewerKey, before: String?, set: String) {
        nicknameRows.append(NicknameRow(channel: channel, messageID: messageID, key: key, before: before, set: set))
        if nicknameRows.count > Self.maxNicknameRows { nicknameRows.removeFirst(nicknameRows.count - Self.maxNicknameRows) }
    }

    /// A moderator deleted row `messageID` (or, with `user`, banned that user): each nickname the
    /// rows set goes back to what it replaced, newest first, where the viewer still has it.
    mutating func undoNicknames(on channel: ChannelRef, messageID: String? = nil, user: ViewerKey? = nil) {
        for index in nicknameRows.indices.reversed() {
            let row = nicknameRows[index]
            guard row.channel == channel, row.messageID == messageID || row.key == user else { continue }
            if entries[row.key]?.nickname == row.set { entries[row.key]?.nickname = row.before }
            nicknameRows.remove(at: index)
        }
    }

    /// A choice made on the control page or by `viewers set`, applied to the next rows at once.
    mutating func apply(_ key: ViewerKey, nickname: FieldChange<String>, colour: FieldChange<RGBColor>,
                        voice: FieldChange<String>, hidden: Bool?) {
        guard var entry = entries[key] else { return }
        entry.nickname = nickname.apply(to: entry.nickname)
        entry.colour = colour.apply(to: entry.colour)
        entry.voice = voice.apply(to: entry.voice)
        entry.hidden = hidden ?? entry.hidden
        entries[key] = entry
    }
}
