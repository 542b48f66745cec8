// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarMemory

/// `commentbar viewers`: a viewer's nickname, colour, voice and hidden flag, and forgetting a viewer.
struct ViewersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viewers", abstract: "Name, colour, hide or forget a viewer in the chat log.",
        subcommands: [ViewersSet.self, ViewersForget.self])
}

struct ViewersSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a viewer's nickname, name colour, voice or hidden flag on a channel (a running bar uses it on their next row).")

    @Option(help: ArgumentHelp("The channel.", valueName: "service:id")) var channel: ChannelRef
    @Option(help: ArgumentHelp("The viewer's account (login or user id).", valueName: "login")) var user: String
    @Option(help: "The name the bar shows for them; \"\" removes it.") var nickname: String?
    @Option(help: ArgumentHelp("Their name's colour, #RRGGBB; \"\" removes it.", valueName: "#RRGGBB")) var colour: String?
    @Option(help: ArgumentHelp("The voice speech reads them in (an eSpeak NG voice, a VOICEVOX speaker id, a 棒読みちゃん number, an Open JTalk voice file); \"\" goes back to speech_voices.", valueName: "voice"))
    var voice: String?
    @Option(help: ArgumentHelp("true hides their comments on the bar; false shows them again.", valueName: "true|false"))
    var hidden: Bool?
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if user.trimmingWhitespace().isEmpty { throw ValidationError("--user is empty") }
        if nickname == nil, colour == nil, voice == nil, hidden == nil {
            throw ValidationError("nothing to set: give --nickname, --colour, --voice or --hidden")
        }
        if let nickname, nickname.unicodeScalars.count > TextSanitizer.maxNameScalars {
            throw ValidationError("--nickname is longer than \(TextSanitizer.maxNameScalars) characters")
        }
        if let colour, !colour.isEmpty, RGBColor(hex: colour) == nil {
            throw ValidationError("--colour must be #RRGGBB (got \(String(reflecting: colour)))")
        }
    }

    func run() throws {
        let log = try db.open()
        let nickname: FieldChange<String> = self.nickname.map { $0.isEmpty ? .clear : .set($0) } ?? .keep
        let colour: FieldChange<RGBColor> = self.colour.map { $0.isEmpty ? .clear : RGBColor(hex: $0).map(FieldChange.set) ?? .keep } ?? .keep
        let voice: FieldChange<String> = self.voice.map { $0.isEmpty ? .clear : .set($0) } ?? .keep
        try logCall { () throws(ChatMemoryError) in
            try log.setViewer(ViewerKey(channel: channel, user: user), nickname: nickname, colour: colour, voice: voice,
                              hidden: hidden)
        }
    }
}

struct ViewersForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete everything the log keeps of a viewer, on every channel: their viewer facts and their messages.")

    @Option(help: ArgumentHelp("The viewer's account (login or user id).", valueName: "login")) var user: String
    @OptionGroup var db: LogDatabaseOption

    func validate() throws {
        if user.trimmingWhitespace().isEmpty { throw ValidationError("--user is empty") }
    }

    func run() throws {
        let log = try db.open()
        let (viewers, messages) = try logCall { () throws(ChatMemoryError) in try log.forget(user: user) }
        print(TextSanitizer.escapedForTerminal("forgot \(user): \(viewers) viewer rows and \(messages) messages deleted from \(log.path)"))
    }
}
