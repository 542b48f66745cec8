// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// A kept poll as `commentbar poll show` prints it: CSV (one row per option per platform that
/// voted, with its votes) or one JSON object (the poll, its counts and every ballot).
public enum PollExport {
    public static let csvHeader = "poll,question,option,text,platform,votes"

    /// The CSV's rows after the header. A poll nobody voted in has one row per option with an
    /// empty platform and 0.
    public static func csvRows(_ poll: SavedPoll) -> [String] {
        let counts = poll.votesByPlatform
        let platforms = counts.isEmpty ? [""] : counts.keys.sorted()
        var rows: [String] = []
        for (index, text) in poll.options.enumerated() {
            for platform in platforms {
                let votes = counts[platform].map { $0[index] } ?? 0
                let cells = [poll.id.map(String.init) ?? "", poll.question, String(index + 1), text, platform, String(votes)]
                rows.append(cells.map(ChatExport.csvCell).joined(separator: ","))
            }
        }
        return rows
    }

    public static func json(_ poll: SavedPoll) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        guard let data = try? encoder.encode(ExportedPoll(poll)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A poll as `--json` prints it: times in ISO 8601 (UTC), options numbered from 1 as the
/// viewers vote for them.
struct ExportedPoll: Encodable {
    struct Option: Encodable {
        var number: Int
        var text: String
        var votes: Int
        var platforms: [String: Int]
    }

    struct Ballot: Encodable {
        var platform: String
        var channel: String
        var user: String
        var option: Int
        var at: String
    }

    var id: Int64?
    var source: String
    var question: String
    var options: [Option]
    var voters: Int
    var revote: String
    var bare_numbers: Bool
    var opened_at: String
    var closes_at: String?
    var closed_at: String?
    var dismissed: Bool
    var ballots: [Ballot]

    init(_ poll: SavedPoll) {
        let counts = poll.votesByPlatform
        id = poll.id
        source = poll.source
        question = poll.question
        options = poll.options.enumerated().map { index, text in
            let platforms = counts.compactMapValues { $0[index] > 0 ? $0[index] : nil }
            return Option(number: index + 1, text: text, votes: platforms.values.reduce(0, +), platforms: platforms)
        }
        voters = poll.ballots.count
        revote = poll.revote
        bare_numbers = poll.bareNumbers
        opened_at = Timestamps.iso(poll.openedAt)
        closes_at = poll.closesAt.map(Timestamps.iso)
        closed_at = poll.closedAt.map(Timestamps.iso)
        dismissed = poll.dismissed
        ballots = poll.ballots.map { ballot in
            Ballot(platform: ballot.voter.channel.platform, channel: ballot.voter.channel.channel, user: ballot.voter.user,
                   option: ballot.option + 1, at: Timestamps.iso(ballot.at))
        }
    }

    /// Optional times as null, not left out: every key on every poll.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(source, forKey: .source)
        try c.encode(question, forKey: .question)
        try c.encode(options, forKey: .options)
        try c.encode(voters, forKey: .voters)
        try c.encode(revote, forKey: .revote)
        try c.encode(bare_numbers, forKey: .bare_numbers)
        try c.encode(opened_at, forKey: .opened_at)
        try c.encode(closes_at, forKey: .closes_at)
        try c.encode(closed_at, forKey: .closed_at)
        try c.encode(dismissed, forKey: .dismissed)
        try c.encode(ballots, forKey: .ballots)
    }

    enum CodingKeys: String, CodingKey {
        case id, source, question, options, voters, revote, bare_numbers, opened_at, closes_at, closed_at, dismissed, ballots
    }
}
