// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
@testable import CommentBarParticipation
import Testing

/// A giveaway: one entry per account while it is open, the rules, draws that never repeat a winner.
@Suite struct GiveawayTests {
    let twitch = ChannelRef(platform: "twitch", channel: "streamer")

    func comment(_ text: String, from login: String) -> ChatLine {
        ChatLine(id: "\(login)-\(text)", user: login.uppercased(), login: login, text: text)
    }

    /// A generator that always gives the same numbers, for a draw a test can predict.
    struct Fixed: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test func viewersEnterOnceWhileItIsOpen() throws {
        var giveaway = try Giveaway(word: "!抽選", seconds: 60, now: 0)
        #expect(giveaway.take(comment("!抽選", from: "a"), channel: twitch, eligibility: Eligibility(), at: 1) == .entered(count: 1))
        #expect(giveaway.take(comment("！抽選", from: "a"), channel: twitch, eligibility: Eligibility(), at: 2) == .alreadyEntered)
        #expect(giveaway.take(comment("抽選したい", from: "b"), channel: twitch, eligibility: Eligibility(), at: 3) == .notAWord)
        #expect(giveaway.take(comment("!抽選", from: "late"), channel: twitch, eligibility: Eligibility(), at: 60) == .closed)
        #expect(giveaway.closedAt == 60)
        #expect(giveaway.entrants.map(\.name) == ["A"])
        #expect(throws: PollProblem(description: "a giveaway needs an entry word")) { try Giveaway(word: "  ", now: 0) }
    }

    @Test func theRulesKeepOutWhomTheStreamerSaid() throws {
        var giveaway = try Giveaway(word: "!enter", rules: GiveawayRules(minimumComments: 3, firstTimeViewers: false), now: 0)
        let cases: [(String, Eligibility, Giveaway.Outcome)] = [
            ("hidden", Eligibility(commentsThisStream: 9, hidden: true), .refused("hidden by the streamer")),
            ("banned", Eligibility(commentsThisStream: 9, banned: true), .refused("banned on this stream")),
            ("new", Eligibility(commentsThisStream: 9, firstTime: true), .refused("first-time viewers are not in this giveaway")),
            ("quiet", Eligibility(commentsThisStream: 2), .refused("2 of the 3 comments this stream needed")),
            ("fan", Eligibility(commentsThisStream: 3), .entered(count: 1)),
        ]
        for (login, eligibility, outcome) in cases {
            #expect(giveaway.take(comment("!enter", from: login), channel: twitch, eligibility: eligibility, at: 1) == outcome)
        }
    }

    @Test func aRedrawNeverPicksAnEarlierWinnerAndEveryDrawIsKept() throws {
        var giveaway = try Giveaway(word: "!enter", now: 0)
        for login in ["a", "b", "c"] {
            _ = giveaway.take(comment("!enter", from: login), channel: twitch, eligibility: Eligibility(), at: 1)
        }
        var random = Fixed(state: 42)
        let first = giveaway.draw(at: 10, using: &random)
        #expect(giveaway.take(comment("!enter", from: "d"), channel: twitch, eligibility: Eligibility(), at: 11) == .closed)
        let second = giveaway.draw(at: 12, using: &random)
        let third = giveaway.draw(at: 13, using: &random)
        #expect(Set([first, second, third].compactMap { $0?.viewer.user }) == ["a", "b", "c"])
        #expect(giveaway.draw(at: 14) == nil)
        #expect(giveaway.winners.count == 3)
        #expect(giveaway.closedAt == 10)
    }

    @Test func theDrawUsesTheSystemsRandomSourceAndReachesEveryone() throws {
        var seen: Set<String> = []
        for _ in 0..<200 {
            var giveaway = try Giveaway(word: "!enter", now: 0)
            for login in ["a", "b", "c", "d"] {
                _ = giveaway.take(comment("!enter", from: login), channel: twitch, eligibility: Eligibility(), at: 1)
            }
            if let winner = giveaway.draw(at: 2) { seen.insert(winner.viewer.user) }
        }
        #expect(seen == ["a", "b", "c", "d"])
    }

    /// Banned by a moderator or hidden by the streamer after entering: never drawn, on any draw.
    @Test func aViewerBannedOrHiddenAfterEnteringIsNeverDrawn() throws {
        for _ in 0..<50 {
            let board = GiveawayBoard(clock: { 5 })
            _ = try board.start(word: "!enter", rules: GiveawayRules(), seconds: nil)
            for login in ["spammer", "hidden", "fan"] {
                board.take(comment("!enter", from: login), channel: twitch, firstTime: false)
            }
            #expect(board.current?.entrants.count == 3)
            board.banned("SPAMMER", channel: twitch)
            board.hidden(ViewerKey(channel: twitch, user: "hidden"))
            #expect(board.draw()?.viewer.user == "fan")
            #expect(board.draw() == nil, "nobody else may win")
            board.hidden(ViewerKey(channel: twitch, user: "hidden"), false)
            #expect(board.draw()?.viewer.user == "hidden", "shown again: drawn again")
        }
    }

    /// A giveaway's memory is bounded: past `maxEntrants` a new entry is refused.
    @Test func aGiveawayTakesAtMostItsMostEntries() throws {
        var giveaway = try Giveaway(word: "!enter", now: 0)
        for viewer in 0..<Giveaway.maxEntrants {
            _ = giveaway.take(comment("!enter", from: "v\(viewer)"), channel: twitch, eligibility: Eligibility(), at: 1)
        }
        #expect(giveaway.isFull)
        #expect(giveaway.take(comment("!enter", from: "late"), channel: twitch, eligibility: Eligibility(), at: 2)
                == .refused("the giveaway has the most entries it takes"))
        #expect(giveaway.entrants.count == Giveaway.maxEntrants)
    }

    /// The bar keeps the entry word off its rows only while entries are open.
    @Test func theEntryWordCountsWhileEntriesAreOpen() throws {
        var giveaway = try Giveaway(word: "!抽選", seconds: 60, now: 0)
        #expect(giveaway.counts(FoldedComment("！抽選"), at: 1))
        #expect(!giveaway.counts(FoldedComment("抽選したい"), at: 1))
        #expect(!giveaway.counts(FoldedComment("!抽選"), at: 60), "its time is up")
        giveaway.close(at: 2)
        #expect(!giveaway.counts(FoldedComment("!抽選"), at: 3))
    }
}
