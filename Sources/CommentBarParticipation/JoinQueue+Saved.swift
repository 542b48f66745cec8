// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarMemory

/// An open queue as the memory keeps it (`SavedQueue`), and made again from it after a restart.
extension JoinQueue {
    var saved: SavedQueue {
        SavedQueue(capacity: rules.capacity, firstTimeFirst: rules.firstTimeFirst, minimumStreamsSeen: rules.minimumStreamsSeen,
                   membersOnly: rules.membersOnly, joinWords: words.savedJoin, leaveWords: words.leave.sorted(),
                   waiting: waiting.map(\.saved), playing: playing.map(\.saved), timesPlayed: timesPlayed)
    }

    init(restoring saved: SavedQueue) {
        // The kept words are folded already: folding them again leaves them as they are.
        self.init(rules: JoinRules(capacity: saved.capacity, firstTimeFirst: saved.firstTimeFirst,
                                   minimumStreamsSeen: saved.minimumStreamsSeen, membersOnly: saved.membersOnly),
                  words: JoinWords(join: saved.joinWords, leave: saved.leaveWords))
        waiting = saved.waiting.map(Entry.init(restoring:))
        playing = saved.playing.map(Entry.init(restoring:))
        timesPlayed = saved.timesPlayed
    }
}

extension JoinQueue.Entry {
    var saved: SavedQueueEntry {
        SavedQueueEntry(viewer: viewer, name: name, played: played, firstTime: firstTime)
    }

    init(restoring saved: SavedQueueEntry) {
        self.init(viewer: saved.viewer, name: saved.name, played: saved.played, firstTime: saved.firstTime)
    }
}
