// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarMemory

/// A poll as the memory keeps it (`SavedPoll`), and made again from it after a restart.
extension Poll {
    /// The poll's row; `ballots`: with every vote (a poll written whole to a new file), or none
    /// (its start, close or dismissal: the votes go one by one).
    func saved(source: String, dismissed: Bool, ballots: Bool) -> SavedPoll {
        SavedPoll(token: token, source: source, question: question.question, options: question.options, revote: revote.rawValue,
                  bareNumbers: bareNumbers, openedAt: openedAt, closesAt: closesAt, closedAt: closedAt, dismissed: dismissed,
                  ballots: ballots ? self.ballots : [])
    }

    var ballots: [SavedBallot] {
        votes.map { voter, vote in SavedBallot(voter: voter, option: vote.option, at: vote.at) }.sorted { $0.at < $1.at }
    }

    /// The poll the memory kept (nil: the row makes no poll this version can run: a question
    /// or options it would refuse now). Ballots for options it has not are left out.
    init?(restoring saved: SavedPoll) {
        guard let question = try? PollQuestion(question: saved.question, options: saved.options) else { return nil }
        self.init(question, revote: Revote(rawValue: saved.revote) ?? .firstStands, bareNumbers: saved.bareNumbers,
                  openedAt: saved.openedAt, closesAt: saved.closesAt, token: saved.token)
        closedAt = saved.closedAt
        for ballot in saved.ballots where question.options.indices.contains(ballot.option) {
            record(ballot.voter, Vote(option: ballot.option, platform: ballot.voter.channel.platform, at: ballot.at))
        }
    }
}
