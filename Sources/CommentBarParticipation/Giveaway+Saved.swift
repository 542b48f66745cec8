// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarMemory

/// A giveaway as the memory keeps it (`SavedGiveaway`), and made again from it after a restart.
extension Giveaway {
    /// The giveaway's row; `whole`: with its entrants and draws (written to a new file), else
    /// none (its start, close or dismissal: entries and draws go one by one). An entrant's and a
    /// draw's time is the memory's only: whole, they carry the giveaway's last moment.
    func saved(source: String, whole: Bool, dismissed: Bool) -> SavedGiveaway {
        let moment = closedAt ?? startedAt
        return SavedGiveaway(token: token, source: source, word: word, minimumComments: rules.minimumComments,
                             firstTimeViewers: rules.firstTimeViewers, startedAt: startedAt, closesAt: closesAt, closedAt: closedAt,
                             dismissed: dismissed, entrants: whole ? entrants.map { $0.saved(at: moment) } : [],
                             draws: whole ? winners.map { $0.saved(at: moment) } : [])
    }

    /// The giveaway the memory kept (nil: a word this version refuses).
    init?(restoring saved: SavedGiveaway) {
        guard let giveaway = try? Giveaway(word: saved.word, rules: GiveawayRules(minimumComments: saved.minimumComments,
                                                                                  firstTimeViewers: saved.firstTimeViewers),
                                           startedAt: saved.startedAt, closesAt: saved.closesAt, token: saved.token)
        else { return nil }
        self = giveaway
        closedAt = saved.closedAt
        entrants = saved.entrants.map(Entrant.init(restoring:))
        winners = saved.draws.map(Entrant.init(restoring:))
        entered = Set(entrants.map(\.viewer))
    }
}

extension Giveaway.Entrant {
    func saved(at time: Double) -> SavedEntrant {
        SavedEntrant(viewer: viewer, name: name, at: time)
    }

    init(restoring saved: SavedEntrant) {
        self.init(viewer: saved.viewer, name: saved.name)
    }
}
