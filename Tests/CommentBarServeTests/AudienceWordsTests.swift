// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import Logging
import XCTest
@testable import CommentBarServe

/// The words that vote, join or enter are counted and kept off the rows while they count
/// (issue 48, `hide_audience_words`), unless the streamer wants them shown; a bot or a viewer
/// hidden by name never takes part.
final class AudienceWordsTests: XCTestCase {
    private let origin = BarState.Origin(index: 0, count: 1, name: "twitch", service: "twitch", badge: .plain)

    /// A session that never runs (its parts are live all the same), and its participation part.
    private func makeSession() throws -> (ServeSession, ParticipationPart) {
        let session = ServeSession(sink: MemoryFrameSink(width: 320, height: 120), log: Logger(label: "test"),
                                   fetch: { _ in .failed("no network") }, secretStore: nil)
        return (session, try XCTUnwrap(session.parts.lazy.compactMap { $0 as? ParticipationPart }.first))
    }

    private func comment(_ id: String, by user: String, _ text: String) -> ChatLine {
        ChatLine(id: id, user: user, text: text)
    }

    /// The comments through the session's state as the flow releases them; what the bar's rows
    /// then hold, and what the parts heard as shown.
    private func release(_ lines: [ChatLine], in session: ServeSession) -> (rows: [String], heardShown: [String?]) {
        session.shared.withLock { shared in
            let heard = shared.apply(lines.map { ChatFlow.Release(event: .comment($0), origin: origin) }, now: 1)
            return (shared.state.lines.map(\.text), heard.map { $0.shown?.text })
        }
    }

    func testWhatTheOpenBoardsCountIsKeptOffTheRowsAndStillCounted() throws {
        let (session, part) = try makeSession()
        part.polls.start(try PollQuestion(question: "どれ？", options: ["ゼルダ", "マリオ"]), bareNumbers: true)
        part.queue.open(rules: JoinRules())
        _ = try part.giveaways.start(word: "!抽選", rules: GiveawayRules(), seconds: nil)
        let lines = [comment("1", by: "a", "ゼルダ"), comment("2", by: "b", "２"), comment("3", by: "c", "!vote 2"),
                     comment("4", by: "d", "!参加"), comment("5", by: "e", "！抽選"), comment("6", by: "f", "こんにちは"),
                     comment("7", by: "g", "2 is better")]
        let (rows, shown) = release(lines, in: session)
        XCTAssertEqual(rows, ["こんにちは", "2 is better"], "talk stays; the votes, the join and the entry do not")
        XCTAssertEqual(shown, [nil, nil, nil, nil, nil, "こんにちは", "2 is better"])
        for line in lines { part.heard(.comment(line), shown: nil, origin: origin) }
        XCTAssertEqual(part.polls.current?.tally.votes, [1, 2], "ゼルダ, then ２ and !vote 2")
        XCTAssertEqual(part.queue.current?.waiting.map(\.viewer.user), ["d"])
        XCTAssertEqual(part.giveaways.current?.entrants.map(\.viewer.user), ["e"])
    }

    func testTheWordsShowWhenTheStreamerWantsThemAndOnceTheBoardsAreClosed() throws {
        let (session, part) = try makeSession()
        part.polls.start(try PollQuestion(question: "Which?", options: ["Sushi", "Ramen"]))
        session.shared.withLock { $0.settings.hideAudienceWords = false }
        XCTAssertEqual(release([comment("1", by: "a", "Sushi")], in: session).rows, ["Sushi"], "shown when wanted")
        session.shared.withLock { $0.settings.hideAudienceWords = true }
        XCTAssertEqual(release([comment("2", by: "b", "Ramen")], in: session).rows, ["Sushi"], "kept off while it counts")
        XCTAssertEqual(release([comment("3", by: "c", "3")], in: session).rows, ["Sushi", "3"],
                       "a bare number is talk when the poll does not take them")
        _ = part.polls.close()
        XCTAssertEqual(release([comment("4", by: "d", "Ramen")], in: session).rows, ["Sushi", "3", "Ramen"],
                       "a closed poll counts nothing: the word is talk again")
        var history = comment("5", by: "e", "!join")
        history.isHistory = true
        part.queue.open(rules: JoinRules())
        XCTAssertEqual(release([history], in: session).rows.last, "!join", "a row from before the bar joined is not counted")
    }

    func testABotOrAViewerHiddenByNameNeverVotesOrJoins() throws {
        let (_, part) = try makeSession()
        var settings = BarSettings()
        settings.hiddenUsers = ["troll"]
        var input = SessionInput(message: StdinMessage(settings: settings), actions: [], current: BarSettings())
        part.apply(&input)
        part.polls.start(try PollQuestion(question: "Which?", options: ["Sushi", "Ramen"]))
        part.queue.open(rules: JoinRules())
        for (id, user, text) in [("1", "Nightbot", "!vote 1"), ("2", "troll", "!vote 2"), ("3", "troll", "!join"),
                                 ("4", "viewer", "!vote 2"), ("5", "viewer", "!join")] {
            part.heard(.comment(comment(id, by: user, text)), shown: nil, origin: origin)
        }
        XCTAssertEqual(part.polls.current?.tally.votes, [0, 1], "only the viewer's vote")
        XCTAssertEqual(part.queue.current?.waiting.map(\.viewer.user), ["viewer"])
    }

    /// A name added to Hidden users after its viewer joined the queue or entered the giveaway:
    /// out of the queue at once (waiting or playing), and passed over by the draws; a name taken
    /// off the list may be drawn again.
    func testANameHiddenLaterLeavesTheQueueAndIsNeverDrawn() throws {
        let (_, part) = try makeSession()
        func hide(_ names: [String]) {
            var settings = BarSettings()
            settings.hiddenUsers = names
            var input = SessionInput(message: StdinMessage(settings: settings), actions: [], current: BarSettings())
            part.apply(&input)
        }
        hide([])
        part.queue.open(rules: JoinRules())
        _ = try part.giveaways.start(word: "!enter", rules: GiveawayRules(), seconds: nil)
        for (index, user) in ["player", "waiter", "fan"].enumerated() {
            part.heard(.comment(comment("j\(index)", by: user, "!join")), shown: nil, origin: origin)
        }
        _ = part.queue.next(1)
        for (index, user) in ["troll", "fan"].enumerated() {
            part.heard(.comment(comment("e\(index)", by: user, "!enter")), shown: nil, origin: origin)
        }
        XCTAssertEqual(part.queue.current?.playing.map(\.viewer.user), ["player"])
        XCTAssertEqual(part.giveaways.current?.entrants.count, 2)

        hide(["Player", "＠waiter", "troll"])
        XCTAssertEqual(part.queue.current?.playing.map(\.viewer.user), [], "the one playing leaves")
        XCTAssertEqual(part.queue.current?.waiting.map(\.viewer.user), ["fan"], "the one waiting leaves; others stay")
        for _ in 0..<20 {
            _ = try part.giveaways.start(word: "!enter", rules: GiveawayRules(), seconds: nil)
            for (index, user) in ["troll", "fan"].enumerated() {
                part.heard(.comment(comment("e\(index)", by: user, "!enter")), shown: nil, origin: origin)
            }
            XCTAssertEqual(part.giveaways.current?.entrants.map(\.viewer.user), ["fan"], "a hidden name no longer enters")
        }
        // Entered before the name was hidden: every draw passes them over.
        for round in 0..<20 {
            hide([])
            _ = try part.giveaways.start(word: "!enter", rules: GiveawayRules(), seconds: nil)
            for (index, user) in ["troll", "fan"].enumerated() {
                part.heard(.comment(comment("r\(round)-\(index)", by: user, "!enter")), shown: nil, origin: origin)
            }
            hide(["troll"])
            XCTAssertEqual(part.giveaways.draw()?.viewer.user, "fan")
            XCTAssertNil(part.giveaways.draw(), "nobody else to draw")
            XCTAssertEqual(part.giveaways.current?.winners.map(\.viewer.user), ["fan"], "the passed-over one is no winner")
        }
        hide([])
        XCTAssertEqual(part.giveaways.draw()?.viewer.user, "troll", "shown again: drawn again")
    }
}
