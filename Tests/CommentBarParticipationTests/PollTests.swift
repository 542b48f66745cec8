// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
@testable import CommentBarParticipation
import Testing

/// A poll counts each viewer account once, over every merged stream, from the ways viewers vote.
@Suite struct PollTests {
    let twitch = ChannelRef(platform: "twitch", channel: "streamer")
    let youtube = ChannelRef(platform: "youtube", channel: "UCstreamer")

    func question() throws -> PollQuestion {
        try PollQuestion(question: "次はどれ？", options: ["ラーメン", "Sushi", "カレー"])
    }

    func comment(_ text: String, from login: String, shown: String? = nil) -> ChatLine {
        ChatLine(id: "\(login)-\(text)", user: shown ?? login, login: login, text: text)
    }

    @Test func aViewerCountsOnceWhateverTheyTypeOrAreCalled() throws {
        var poll = Poll(try question(), now: 0)
        #expect(poll.take(comment("!vote 2", from: "fan"), channel: twitch, at: 1) == .counted(1))
        for _ in 0..<100 { #expect(poll.take(comment("!vote 2", from: "fan"), channel: twitch, at: 2) == .alreadyVoted(1)) }
        // A new display name is the same account; the first vote stands.
        #expect(poll.take(comment("!vote 3", from: "fan", shown: "Fan 改名"), channel: twitch, at: 3) == .alreadyVoted(1))
        #expect(poll.tally.votes == [0, 1, 0])
        #expect(poll.tally.voters == 1)
    }

    /// A poll's memory is bounded: past `maxVoters` a new voter is not counted, and one who voted
    /// may still move their vote.
    @Test func aPollCountsAtMostItsMostVoters() throws {
        var poll = Poll(try question(), revote: .latestReplaces, now: 0)
        for viewer in 0..<Poll.maxVoters {
            #expect(poll.take(comment("!vote 1", from: "v\(viewer)"), channel: twitch, at: 1) == .counted(0))
        }
        #expect(poll.isFull)
        #expect(poll.take(comment("!vote 2", from: "late"), channel: twitch, at: 2) == .full)
        #expect(poll.take(comment("!vote 2", from: "v7"), channel: twitch, at: 2) == .changed(from: 0, to: 1))
        #expect(poll.tally.voters == Poll.maxVoters)
        #expect(poll.tally.votes == [Poll.maxVoters - 1, 1, 0])
    }

    /// The count is kept as votes come and move, never counted again: it must stay what a count of
    /// the ballots gives, per option and per platform.
    @Test func theCountKeptAsVotesComeAndMoveIsTheBallotsCount() throws {
        var poll = Poll(try question(), revote: .latestReplaces, now: 0)
        for index in 0..<30 {
            let channel = index % 3 == 0 ? youtube : twitch
            _ = poll.take(comment("!vote \(index % 3 + 1)", from: "fan\(index % 10)"), channel: channel, at: Double(index))
        }
        var recount = [0, 0, 0]
        var byPlatform: [String: [Int]] = [:]
        for (voter, vote) in poll.votes {
            recount[vote.option] += 1
            byPlatform[voter.channel.platform, default: [0, 0, 0]][vote.option] += 1
        }
        #expect(poll.tally.votes == recount)
        #expect(poll.tally.voters == poll.votes.count)
        #expect(poll.tally.byPlatform.filter { $0.value.contains { $0 > 0 } } == byPlatform)
        #expect(poll.tally.voters == 20, "each of ten logins on both platforms, once per account")
    }

    @Test func theWaysToVote() throws {
        let strict = PollBallot(options: try question().options, bareNumbers: false)
        let bare = PollBallot(options: try question().options, bareNumbers: true)
        for (text, option) in [("!vote 1", 0), ("！ｖｏｔｅ　２", 1), ("!VOTE 3", 2), ("  !vote   2 ", 1), ("ラーメン", 0),
                               ("sushi", 1), ("ＳＵＳＨＩ", 1), ("カレー", 2)] as [(String, Int?)] {
            #expect(strict.choice(text) == option, "\(text)")
        }
        for text in ["2", "２", "!vote 4", "!vote 0", "!vote 2 3", "!vote2", "2 is better", "ラーメン食べたい", "!voter 2", ""] {
            #expect(strict.choice(text) == nil, "\(text)")
        }
        for (text, option) in [("2", 1), ("２", 1), ("٢", 1), ("3", 2)] { #expect(bare.choice(text) == option, "\(text)") }
        for text in ["4", "0", "22", "2!"] { #expect(bare.choice(text) == nil, "\(text)") }
    }

    @Test func theLatestVoteReplacesWhenTheStreamerSaysSo() throws {
        var poll = Poll(try question(), revote: .latestReplaces, now: 0)
        #expect(poll.take(comment("1", from: "fan"), channel: twitch, at: 1) == .notAVote, "no bare numbers")
        #expect(poll.take(comment("!vote 1", from: "fan"), channel: twitch, at: 1) == .counted(0))
        #expect(poll.take(comment("カレー", from: "fan"), channel: twitch, at: 2) == .changed(from: 0, to: 2))
        #expect(poll.take(comment("カレー", from: "fan"), channel: twitch, at: 3) == .alreadyVoted(2))
        #expect(poll.tally.votes == [0, 0, 1])
    }

    @Test func votesAreCountedPerPlatformAndEachPlatformsAccountIsItsOwn() throws {
        var poll = Poll(try question(), now: 0)
        _ = poll.take(comment("!vote 1", from: "taro"), channel: twitch, at: 1)
        _ = poll.take(comment("!vote 1", from: "taro"), channel: youtube, at: 1)
        _ = poll.take(comment("!vote 2", from: "hanako"), channel: youtube, at: 1)
        #expect(poll.tally.votes == [2, 1, 0])
        #expect(poll.tally.byPlatform == ["twitch": [1, 0, 0], "youtube": [1, 1, 0]])
    }

    @Test func aTimedPollClosesAtItsMomentAndALateVoteNeverCounts() throws {
        var poll = Poll(try question(), seconds: 30, now: 100)
        #expect(poll.take(comment("!vote 1", from: "early"), channel: twitch, at: 129.9) == .counted(0))
        #expect(poll.isOpen(at: 129.9))
        #expect(!poll.isOpen(at: 130))
        #expect(poll.take(comment("!vote 1", from: "late"), channel: twitch, at: 131) == .closed)
        #expect(poll.closedAt == 130)
        var untimed = Poll(try question(), now: 0)
        untimed.close(at: 5)
        #expect(untimed.take(comment("!vote 1", from: "late"), channel: twitch, at: 6) == .closed)
        #expect(untimed.closedAt == 5)
        #expect(poll.tally.voters == 1)
    }

    @Test func theChatFromBeforeTheBarConnectedIsNotAVote() throws {
        var poll = Poll(try question(), now: 0)
        var old = comment("!vote 1", from: "fan")
        old.isHistory = true
        #expect(poll.take(old, channel: twitch, at: 1) == .notAVote)
    }

    @Test func aPollThatCannotBeRunIsRefusedInWords() {
        let cases: [(String, [String], String)] = [
            ("", ["a", "b"], "a poll needs a question"),
            ("q", ["only"], "a poll has 2 to 9 options, not 1"),
            ("q", (1...10).map(String.init), "a poll has 2 to 9 options, not 10"),
            ("q", ["a", " "], "option 2 of the poll is empty"),
            ("q", ["Ａ", "b", "a"], "options 1 and 3 of the poll are the same word"),
        ]
        for (question, options, message) in cases {
            #expect(throws: PollProblem(description: message)) { try PollQuestion(question: question, options: options) }
        }
    }
}
