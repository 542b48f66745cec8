// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
@testable import commentbar
import CommentBarCore
import CommentBarMemory
import Foundation
import Testing

/// `commentbar log …` and `commentbar viewers …` as ArgumentParser reads and checks them.
@Suite struct LogCommandTests {
    private func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try CommentBarCommand.parseAsRoot(arguments)
    }

    private func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return CommentBarCommand.message(for: error)
        }
    }

    @Test func searchReadsItsOptions() throws {
        let search = try #require(try parse(["log", "search", "初見", "--channel", "twitch:somechannel", "--user", "alice",
                                             "--since", "7d", "--limit", "5", "--json", "--db", "/tmp/x.sqlite3"]) as? LogSearch)
        #expect(search.text == "初見")
        #expect(search.channel == ChannelRef(platform: "twitch", channel: "somechannel"))
        #expect(search.user == "alice")
        #expect(search.since == "7d")
        #expect(search.limit == 5)
        #expect(search.json)
        #expect(search.db.path == "/tmp/x.sqlite3")
        let plain = try #require(try parse(["log", "search", "pizza"]) as? LogSearch)
        #expect(plain.limit == nil, "every match unless --limit")
        #expect(!plain.json)
    }

    @Test func pollShowReadsItsOptions() throws {
        let show = try #require(try parse(["poll", "show", "12", "--csv", "--db", "/tmp/x.sqlite3"]) as? PollShow)
        #expect(show.id == 12 && show.csv && !show.json)
        #expect(show.db.path == "/tmp/x.sqlite3")
        #expect(try parse(["giveaway", "list", "--json"]) is GiveawayList)
    }

    @Test func aRelayChannelKeepsTheColonsOfItsAddress() throws {
        let viewers = try #require(try parse(["log", "viewers", "--channel", "jsonws:wss://relay.example/chat"]) as? LogViewers)
        #expect(viewers.channel == ChannelRef(platform: "jsonws", channel: "wss://relay.example/chat"))
    }

    @Test(arguments: [
        (["log", "search", " "], "TEXT is empty"),
        (["log", "search", "x", "--limit", "0"], "--limit must be at least 1"),
        (["log", "search", "x", "--channel", "nocolon"], "channel"),
        (["log", "export", "--format", "pdf"], "format"),
        (["log", "export", "--format", "srt", "--session", "yesterday"], "--session must be latest or a session number"),
        (["log", "prune", "--older-than=-1"], "--older-than must be"),
        (["viewers", "set", "--channel", "twitch:a", "--user", "bob"], "nothing to set"),
        (["viewers", "set", "--channel", "twitch:a", "--user", "bob", "--colour", "red"], "--colour must be #RRGGBB"),
        (["viewers", "set", "--channel", "twitch:a", "--user", "bob", "--hidden", "maybe"], "hidden"),
        (["viewers", "forget"], "--user"),
        (["poll", "show", "3", "--json", "--csv"], "not both"),
        (["poll", "show", "0"], "1 or more"),
        (["poll", "show", "latest"], "id"),
    ])
    func badInputIsRefusedWithAMessage(arguments: [String], message: String) {
        let refused = refusal(arguments)
        #expect(refused?.contains(message) == true, "\(arguments): \(refused ?? "accepted")")
    }

    @Test func aMissingLogIsAClearError() throws {
        let folder = NSTemporaryDirectory() + "/commentbar-no-log-\(getpid())"
        let search = try #require(try parse(["log", "search", "x", "--db", folder + "/none.sqlite3"]) as? LogSearch)
        #expect(throws: CLIError.self) { try search.run() }
        #expect(!FileManager.default.fileExists(atPath: folder + "/none.sqlite3"), "a search never makes a log")
        do {
            try search.run()
        } catch {
            #expect("\(error)".contains("no chat log at"))
        }
    }

    @Test func setAndForgetChangeTheLog() throws {
        let folder = NSTemporaryDirectory() + "/commentbar-log-cli-\(getpid())-\(Int.random(in: 0...1_000_000))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/chat.sqlite3"
        let memory = ChatMemory(path: path, log: .init(label: "test"))
        let channel = ChannelRef(platform: "twitch", channel: "a")
        let session = memory.openSession(channel, now: Date().timeIntervalSince1970)
        _ = memory.receive(ChatLine(id: "1", user: "Bob", login: "bob", text: "hello"), session: session, channel: channel,
                           options: MemoryOptions(), now: Date().timeIntervalSince1970)
        memory.close()

        var set = try #require(try parse(["viewers", "set", "--channel", "twitch:a", "--user", "Bob", "--nickname", "ボブ",
                                          "--colour", "#ff8800", "--hidden", "true", "--db", path]) as? ViewersSet)
        try set.run()
        var viewer = try #require(try ChatLog(path: path).viewers(of: channel).first)
        #expect(viewer.nickname == "ボブ")
        #expect(viewer.colour == RGBColor(hex: "#ff8800"))
        #expect(viewer.hidden)
        set = try #require(try parse(["viewers", "set", "--channel", "twitch:a", "--user", "bob", "--nickname", "",
                                      "--db", path]) as? ViewersSet)
        try set.run()
        viewer = try #require(try ChatLog(path: path).viewers(of: channel).first)
        #expect(viewer.nickname == nil)
        #expect(viewer.hidden, "what was not given is kept")

        let forget = try #require(try parse(["viewers", "forget", "--user", "BOB", "--db", path]) as? ViewersForget)
        try forget.run()
        #expect(try ChatLog(path: path).viewers(of: nil).isEmpty)
        #expect(try ChatLog(path: path).search(ChatQuery(text: "hello")).isEmpty, "their messages too")
    }
}
