// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarActions
import CommentBarMemory
import CommentBarParticipation

/// The audience's boards' changes as Streamer.bot's rules see them (issue 48): `poll_closed` with
/// the question and the result, `queue_join` and `queue_next` with the viewer, `giveaway_winner`
/// with the winner; their arguments are the `%variables%` docs/doors.md lists.
enum AudienceActions {
    static func happenings(_ change: PollBoard.Change) -> [AudienceHappening] {
        guard case .closed(let poll) = change else { return [] }
        let tally = poll.tally
        let options = poll.question.options
        let most = tally.votes.max() ?? 0
        // Every option with the most votes (a tie names them all); none while nobody voted.
        let leading = most > 0 ? options.indices.filter { tally.votes.indices.contains($0) && tally.votes[$0] == most } : []
        let results = options.indices.map { index in
            "\(index + 1). \(options[index]) \(tally.votes.indices.contains(index) ? tally.votes[index] : 0)"
        }
        return [AudienceHappening(.pollClosed, args: [
            "question": .text(poll.question.question),
            "winner": .text(leading.map { options[$0] }.joined(separator: " / ")),
            "winner_number": .integer(leading.count == 1 ? (leading.first ?? -1) + 1 : 0),
            "winner_votes": .integer(most),
            "voters": .integer(tally.voters),
            "results": .text(results.joined(separator: " / ")),
        ])]
    }

    static func happenings(_ change: QueueBoard.Change) -> [AudienceHappening] {
        switch change {
        case .joined(let entry, let place):
            var args = viewer(entry.viewer, name: entry.name)
            args["place"] = .integer(place)
            args["first_time"] = .flag(entry.firstTime)
            args["count"] = .integer(entry.played)
            return [AudienceHappening(.queueJoin, args: args)]
        case .called(let called):
            return called.enumerated().map { number, entry in
                var args = viewer(entry.viewer, name: entry.name)
                args["count"] = .integer(entry.played)
                args["position"] = .integer(number + 1)
                args["called"] = .integer(called.count)
                return AudienceHappening(.queueNext, args: args)
            }
        case .left, .changed:
            return []
        }
    }

    static func happenings(_ change: GiveawayBoard.Change) -> [AudienceHappening] {
        guard case .won(let entrant, let draw) = change else { return [] }
        var args = viewer(entrant.viewer, name: entrant.name)
        args["draw"] = .integer(draw)
        return [AudienceHappening(.giveawayWinner, args: args)]
    }

    private static func viewer(_ key: ViewerKey, name: String) -> [String: ActionArgument] {
        ["platform": .text(key.channel.platform), "channel": .text(key.channel.channel), "user": .text(key.user),
         "name": .text(name)]
    }
}
