// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarMemory

/// `commentbar giveaway`: the giveaways the memory kept, each with every draw (issue 48).
struct GiveawayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "giveaway", abstract: "List the giveaways the chat log kept, with every draw.",
        subcommands: [GiveawayList.self])
}

struct GiveawayList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every giveaway kept, newest first, with its draws.")

    @Flag(help: "One JSON object per giveaway.") var json = false
    @OptionGroup var db: LogDatabaseOption

    /// What `--json` prints for a giveaway.
    struct Row: Encodable {
        struct Person: Encodable {
            var number: Int
            var platform: String
            var channel: String
            var user: String
            var name: String
            var at: String
        }

        var id: Int64?
        var source: String
        var word: String
        var minimum_comments: Int
        var first_time_viewers: Bool
        var started_at: String
        var closed_at: String?
        var entrants: Int
        var draws: [Person]

        init(_ giveaway: SavedGiveaway) {
            id = giveaway.id
            source = giveaway.source
            word = giveaway.word
            minimum_comments = giveaway.minimumComments
            first_time_viewers = giveaway.firstTimeViewers
            started_at = Timestamps.iso(giveaway.startedAt)
            closed_at = giveaway.closedAt.map(Timestamps.iso)
            entrants = giveaway.entrants.count
            draws = giveaway.draws.enumerated().map { index, winner in
                Person(number: index + 1, platform: winner.viewer.channel.platform, channel: winner.viewer.channel.channel,
                       user: winner.viewer.user, name: winner.name, at: Timestamps.iso(winner.at))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(source, forKey: .source)
            try c.encode(word, forKey: .word)
            try c.encode(minimum_comments, forKey: .minimum_comments)
            try c.encode(first_time_viewers, forKey: .first_time_viewers)
            try c.encode(started_at, forKey: .started_at)
            try c.encode(closed_at, forKey: .closed_at)
            try c.encode(entrants, forKey: .entrants)
            try c.encode(draws, forKey: .draws)
        }

        enum CodingKeys: String, CodingKey {
            case id, source, word, minimum_comments, first_time_viewers, started_at, closed_at, entrants, draws
        }
    }

    func run() throws {
        let boards = try db.openBoards()
        let giveaways = try logCall { () throws(ChatMemoryError) in try boards.giveaways() }
        if giveaways.isEmpty, !json { print("no giveaways kept") }
        for giveaway in giveaways {
            if json {
                print(JSONLines.line(Row(giveaway)))
                continue
            }
            var lines = ["\(giveaway.id.map(String.init) ?? "?")  \(Timestamps.local(giveaway.startedAt))  word \(giveaway.word)  "
                + "\(giveaway.entrants.count) entered"]
            for (index, winner) in giveaway.draws.enumerated() {
                lines.append("  draw \(index + 1)  \(Timestamps.local(winner.at))  \(winner.name) (\(winner.viewer.user) on \(winner.viewer.channel))")
            }
            for line in lines { print(TextSanitizer.escapedForTerminal(line)) }
        }
    }
}
