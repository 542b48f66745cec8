// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarMemory

/// `commentbar poll`: the polls the memory kept (issue 48), read from the chat log without
/// writing it (a renderer may be running on it).
struct PollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poll", abstract: "List and show the polls the chat log kept (the `remember` setting).",
        subcommands: [PollList.self, PollShow.self])
}

extension LogDatabaseOption {
    func openBoards() throws -> BoardHistory {
        do {
            return try BoardHistory(path: try resolved())
        } catch let error as ChatMemoryError {
            throw CLIError(error.description)
        }
    }
}

struct PollList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every poll kept, newest first.")

    @Flag(help: "One JSON object per poll (as `poll show --json` gives it).") var json = false
    @Flag(help: "As CSV: every poll's rows as `poll show --csv` gives them, under one header.") var csv = false
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if json && csv { throw ValidationError("give --json or --csv, not both") }
    }

    func run() throws {
        let boards = try db.openBoards()
        let polls = try logCall { () throws(ChatMemoryError) in try boards.polls() }
        if csv { print(PollExport.csvHeader) }
        if polls.isEmpty, !json, !csv { print("no polls kept") }
        for poll in polls {
            if csv {
                for row in PollExport.csvRows(poll) { print(row) }
                continue
            }
            if json {
                print(PollExport.json(poll))
                continue
            }
            let state = poll.closedAt == nil ? "open" : "closed \(Timestamps.local(poll.closedAt ?? poll.openedAt))"
            let line = "\(poll.id.map(String.init) ?? "?")  \(Timestamps.local(poll.openedAt))  \(state)  "
                + "\(poll.ballots.count) votes  \(poll.question)"
            print(TextSanitizer.escapedForTerminal(line))
        }
    }
}

struct PollShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One poll's result: each option's votes, per platform.")

    @Argument(help: "The poll's number (`commentbar poll list`).") var id: Int64
    @Flag(help: "As JSON: the poll, its counts and every ballot.") var json = false
    @Flag(help: "As CSV: one row per option per platform, with its votes.") var csv = false
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if json && csv { throw ValidationError("give --json or --csv, not both") }
        if id < 1 { throw ValidationError("a poll's number is 1 or more") }
    }

    func run() throws {
        let boards = try db.openBoards()
        let poll = try logCall { () throws(ChatMemoryError) in try boards.poll(id: id) }
        if json {
            print(PollExport.json(poll))
        } else if csv {
            print(PollExport.csvHeader)
            for row in PollExport.csvRows(poll) { print(row) }
        } else {
            for line in Self.lines(poll) { print(TextSanitizer.escapedForTerminal(line)) }
        }
    }

    /// The question, its times and each option's votes (with each platform's), a line each.
    static func lines(_ poll: SavedPoll) -> [String] {
        let counts = poll.votesByPlatform
        let closed = poll.closedAt.map { ", closed \(Timestamps.local($0))" } ?? ", open"
        var lines = [poll.question, "opened \(Timestamps.local(poll.openedAt))\(closed); \(poll.ballots.count) votes"]
        for (index, option) in poll.options.enumerated() {
            let total = counts.values.reduce(0) { $0 + $1[index] }
            let platforms = counts.keys.sorted().compactMap { platform -> String? in
                guard let votes = counts[platform]?[index], votes > 0 else { return nil }
                return "\(platform) \(votes)"
            }
            lines.append("\(index + 1). \(option): \(total)" + (platforms.isEmpty ? "" : " (\(platforms.joined(separator: ", ")))"))
        }
        return lines
    }
}
