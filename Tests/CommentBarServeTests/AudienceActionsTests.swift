// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarActions
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
@testable import CommentBarServe
import Synchronization
import XCTest

/// The boards' changes as Streamer.bot's audience rules get them (docs/doors.md's `%variables%`):
/// a closed poll's question and result (a tie names every leader), a join, each viewer called, a
/// winner; a vote, a leave or an entry runs nothing.
final class AudienceActionsTests: XCTestCase {
    let twitch = ChannelRef(platform: "twitch", channel: "streamer")
    let youtube = ChannelRef(platform: "youtube", channel: "UCstreamer")

    func comment(_ text: String, from login: String) -> ChatLine {
        ChatLine(id: "\(login)-\(text)", user: login.capitalized, login: login, text: text)
    }

    /// Everything the boards' changes ran, in order.
    final class Recording: Sendable {
        private let ran = Mutex<[AudienceHappening]>([])
        func add(_ happenings: [AudienceHappening]) { ran.withLock { $0 += happenings } }
        func withLock<T>(_ read: ([AudienceHappening]) -> T) -> T { ran.withLock { read($0) } }
    }

    func recording(polls: PollBoard = PollBoard(), queue: QueueBoard = QueueBoard(),
                   giveaways: GiveawayBoard = GiveawayBoard()) -> Recording {
        let ran = Recording()
        polls.listen { change in ran.add(AudienceActions.happenings(change)) }
        queue.listen { change in ran.add(AudienceActions.happenings(change)) }
        giveaways.listen { change in ran.add(AudienceActions.happenings(change)) }
        return ran
    }

    func testAClosedPollSaysItsQuestionAndResult() throws {
        let polls = PollBoard()
        let ran = recording(polls: polls)
        polls.start(try PollQuestion(question: "次は？", options: ["マリオ", "ゼルダ", "カービィ"]))
        polls.take(comment("!vote 1", from: "a"), channel: twitch)
        polls.take(comment("!vote 2", from: "b"), channel: youtube)
        polls.take(comment("!vote 2", from: "c"), channel: twitch)
        XCTAssertTrue(ran.withLock { $0.isEmpty }, "votes run nothing")
        _ = polls.close()
        XCTAssertEqual(ran.withLock { $0 }, [AudienceHappening(.pollClosed, args: [
            "question": .text("次は？"), "winner": .text("ゼルダ"), "winner_number": .integer(2), "winner_votes": .integer(2),
            "voters": .integer(3), "results": .text("1. マリオ 1 / 2. ゼルダ 2 / 3. カービィ 0"),
        ])])
    }

    func testATieNamesEveryLeaderAndNoVoteNamesNone() throws {
        let polls = PollBoard()
        let ran = recording(polls: polls)
        polls.start(try PollQuestion(question: "Q", options: ["A", "B"]))
        polls.take(comment("!vote 1", from: "a"), channel: twitch)
        polls.take(comment("!vote 2", from: "b"), channel: twitch)
        _ = polls.close()
        polls.start(try PollQuestion(question: "Empty", options: ["A", "B"]))
        _ = polls.close()
        let closed = ran.withLock { $0 }.map { ($0.args["winner"], $0.args["winner_number"], $0.args["winner_votes"]) }
        XCTAssertEqual(closed.map(\.0), [.text("A / B"), .text("")])
        XCTAssertEqual(closed.map(\.1), [.integer(0), .integer(0)])
        XCTAssertEqual(closed.map(\.2), [.integer(1), .integer(0)])
    }

    func testTheQueueRunsAJoinAndEachViewerCalled() {
        let queue = QueueBoard()
        let ran = recording(queue: queue)
        queue.open(rules: JoinRules())
        queue.take(comment("!join", from: "aki"), channel: twitch, standing: Standing(firstTime: true))
        queue.take(comment("!参加", from: "bo"), channel: youtube, standing: Standing())
        queue.take(comment("!leave", from: "bo"), channel: youtube, standing: Standing())
        queue.take(comment("!join", from: "bo"), channel: youtube, standing: Standing())
        _ = queue.next(2)
        let happenings = ran.withLock { $0 }
        XCTAssertEqual(happenings.map(\.kind), [.queueJoin, .queueJoin, .queueJoin, .queueNext, .queueNext])
        XCTAssertEqual(happenings[0].args, ["platform": .text("twitch"), "channel": .text("streamer"), "user": .text("aki"),
                                            "name": .text("Aki"), "place": .integer(1), "first_time": .flag(true),
                                            "count": .integer(0)])
        XCTAssertEqual(happenings.suffix(2).map { $0.args["name"] }, [.text("Aki"), .text("Bo")])
        XCTAssertEqual(happenings.suffix(2).map { $0.args["position"] }, [.integer(1), .integer(2)])
        XCTAssertEqual(happenings.suffix(2).map { $0.args["called"] }, [.integer(2), .integer(2)])
        XCTAssertEqual(happenings.last?.args["count"], .integer(1), "times called, this one included")
    }

    func testADrawRunsTheWinnerAndAnEntryNothing() throws {
        let giveaways = GiveawayBoard()
        let ran = recording(giveaways: giveaways)
        _ = try giveaways.start(word: "!抽選", rules: GiveawayRules(), seconds: nil)
        giveaways.take(comment("!抽選", from: "aki"), channel: twitch, firstTime: false)
        XCTAssertTrue(ran.withLock { $0.isEmpty })
        _ = giveaways.draw()
        XCTAssertEqual(ran.withLock { $0 }, [AudienceHappening(.giveawayWinner, args: [
            "platform": .text("twitch"), "channel": .text("streamer"), "user": .text("aki"), "name": .text("Aki"),
            "draw": .integer(1),
        ])])
    }
}
