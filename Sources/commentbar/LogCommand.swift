// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarMemory
import FoundationEssentials
import Glibc

/// `commentbar log`: the chat log the bar keeps (the viewer memory, issue 29).
struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search, list and export the chat log the bar keeps (the `remember` setting).",
        subcommands: [LogSearch.self, LogViewers.self, LogExport.self, LogPrune.self])
}

/// `--db PATH`, on every command of `log` and `viewers`.
struct LogDatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The chat log (default: $XDG_DATA_HOME/comment-bar/chat.sqlite3, or the source's log_path).", valueName: "path"))
    var path: String?

    /// The file named, or the default one.
    func resolved() throws -> String {
        if let path, !path.isEmpty { return path }
        guard let path = MemoryFiles.defaultPath() else {
            throw CLIError("no default chat log: HOME and XDG_DATA_HOME are unset; give --db PATH")
        }
        return path
    }

    func open() throws -> ChatLog {
        do {
            return try ChatLog(path: try resolved())
        } catch let error as ChatMemoryError {
            throw CLIError(error.description)
        }
    }
}

/// `SERVICE:ID` as an option's value.
extension ChannelRef: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// One JSON object per line, every key on every line.
enum JSONLines {
    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Runs a log call, its failure a plain error message (exit status 1).
func logCall<T>(_ body: () throws(ChatMemoryError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw CLIError(error.description)
    }
}

struct LogSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find messages containing TEXT (Japanese words inside sentences too), newest first.")

    @Argument(help: "What to find: anywhere inside a message, ASCII case ignored.") var text: String
    @Option(help: ArgumentHelp("Only this channel.", valueName: "service:id")) var channel: ChannelRef?
    @Option(help: ArgumentHelp("Only this viewer: an account, a display name or a nickname.", valueName: "name"))
    var user: String?
    @Option(help: ArgumentHelp("Only messages since this time: YYYY-MM-DD[ HH:MM[:SS]] (local time), or 30m, 12h, 7d back.",
                               valueName: "date"))
    var since: String?
    @Option(help: "At most this many matches (default: every match).") var limit: Int?
    @Flag(help: "One JSON object per match.") var json = false
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if text.trimmingWhitespace().isEmpty { throw ValidationError("TEXT is empty: give something to find") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let log = try db.open()
        var since: Double?
        if let text = self.since {
            guard let time = log.time(parsing: text, now: Double(Glibc.time(nil))) else {
                throw ValidationError("--since: \(String(reflecting: text)) is not a date (YYYY-MM-DD, YYYY-MM-DD HH:MM) or a span (30m, 12h, 7d)")
            }
            since = time
        }
        let matches = try logCall { () throws(ChatMemoryError) in
            try log.search(ChatQuery(text: text, channel: channel, user: user, since: since, limit: limit))
        }
        for message in matches {
            if json {
                print(JSONLines.line(ExportedMessage(message)))
            } else {
                let name = message.nickname.map { "\(message.name) (\($0))" } ?? message.name
                let line = "\(Timestamps.local(message.time))  \(message.channel)  \(name): \(message.text ?? "")"
                print(TextSanitizer.escapedForTerminal(line))
            }
        }
    }
}

struct LogViewers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viewers", abstract: "List the viewers the log knows, most recently seen first.")

    @Option(help: ArgumentHelp("Only this channel.", valueName: "service:id")) var channel: ChannelRef?
    @Flag(help: "One JSON object per viewer.") var json = false
    @OptionGroup var db: LogDatabaseOption

    /// What `--json` prints for a viewer.
    struct Row: Encodable {
        var facts: ViewerFacts

        enum CodingKeys: String, CodingKey {
            case platform, channel, user, name, nickname, colour, voice, hidden, first_seen, last_seen, streams, comments, gifts
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(facts.key.channel.platform, forKey: .platform)
            try c.encode(facts.key.channel.channel, forKey: .channel)
            try c.encode(facts.key.user, forKey: .user)
            try c.encode(facts.name, forKey: .name)
            try c.encode(facts.nickname, forKey: .nickname)
            try c.encode(facts.colour?.hex, forKey: .colour)
            try c.encode(facts.voice, forKey: .voice)
            try c.encode(facts.hidden, forKey: .hidden)
            try c.encode(facts.firstSeen.map(Timestamps.iso), forKey: .first_seen)
            try c.encode(facts.lastSeen.map(Timestamps.iso), forKey: .last_seen)
            try c.encode(facts.streams, forKey: .streams)
            try c.encode(facts.comments, forKey: .comments)
            try c.encode(facts.gifts, forKey: .gifts)
        }
    }

    func run() throws {
        let log = try db.open()
        let viewers = try logCall { () throws(ChatMemoryError) in try log.viewers(of: channel) }
        for viewer in viewers {
            if json {
                print(JSONLines.line(Row(facts: viewer)))
            } else {
                let nickname = viewer.nickname.map { " (\($0))" } ?? ""
                let seen = viewer.lastSeen.map(Timestamps.local) ?? "never"
                let line = "\(viewer.key.channel)  \(viewer.key.user)  \(viewer.name)\(nickname)  last seen \(seen)  "
                    + "\(viewer.streams) streams, \(viewer.comments) comments, \(viewer.gifts) gifts\(viewer.hidden ? ", hidden" : "")"
                print(TextSanitizer.escapedForTerminal(line))
            }
        }
    }
}

extension ChatExport.Format: ExpressibleByArgument {}

struct LogExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a stream's chat as CSV, JSON lines, or SRT/ASS subtitles timed to OBS's recording.")

    @Option(help: "csv, jsonl, srt or ass.") var format: ChatExport.Format
    @Option(help: ArgumentHelp("latest, or a session number (as --json output gives it).", valueName: "latest|id"))
    var session = "latest"
    @Option(help: ArgumentHelp("With --session latest: the latest session of this channel.", valueName: "service:id"))
    var channel: ChannelRef?
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if session != "latest", (Int64(session) ?? 0) < 1 {
            throw ValidationError("--session must be latest or a session number (got \(session))")
        }
    }

    func run() throws {
        let log = try db.open()
        let chosen = try logCall { () throws(ChatMemoryError) in try log.session(session, channel: channel) }
        try logCall { () throws(ChatMemoryError) in try log.export(chosen, format: format) { print($0, terminator: "") } }
    }
}

struct LogPrune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete messages older than DAYS days (viewers stay, so first-time badges stay right).")

    @Option(help: ArgumentHelp("Days to keep.", valueName: "days")) var olderThan: Int
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if olderThan < 0 || olderThan > 36_500 { throw ValidationError("--older-than must be 0...36500 days") }
    }

    func run() throws {
        let log = try db.open()
        let cut = Double(Glibc.time(nil)) - Double(olderThan) * 86_400
        let deleted = try logCall { () throws(ChatMemoryError) in try log.prune(before: cut) }
        print("deleted \(deleted) messages older than \(olderThan) days from \(log.path)")
    }
}
