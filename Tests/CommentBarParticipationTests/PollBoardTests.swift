// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
@testable import CommentBarParticipation
import Synchronization
import Testing

/// The session's poll: what it tells the event API, a timed poll closing itself once, a new poll
/// closing the open one.
@Suite struct PollBoardTests {
    let twitch = ChannelRef(platform: "twitch", channel: "streamer")

    final class Heard: Sendable {
        let changes = Mutex<[String]>([])
        func record(_ change: PollBoard.Change) {
            let text: String
            switch change {
            case .started(let poll): text = "started \(poll.question.question)"
            case .voted(let option, let previous, let voter, let tally):
                text = "voted \(option) from \(previous.map(String.init) ?? "-") by \(voter.user): \(tally.votes)"
            case .closed(let poll): text = "closed \(poll.question.question) at \(poll.closedAt ?? -1)"
            case .dismissed(let poll): text = "dismissed \(poll.question.question)"
            }
            changes.withLock { $0.append(text) }
        }
    }

    func question(_ text: String) throws -> PollQuestion {
        try PollQuestion(question: text, options: ["a", "b"])
    }

    @Test func votesAreToldAndANewPollClosesTheOpenOne() throws {
        let now = Mutex(100.0)
        let board = PollBoard(clock: { now.withLock { $0 } })
        let heard = Heard()
        board.listen(heard.record)
        board.start(try question("Q1"), revote: .latestReplaces)
        board.take(ChatLine(id: "1", user: "Fan", login: "fan", text: "!vote 1"), channel: twitch)
        board.take(ChatLine(id: "2", user: "Fan", login: "fan", text: "b"), channel: twitch)
        board.take(ChatLine(id: "3", user: "Fan", login: "fan", text: "b"), channel: twitch)
        now.withLock { $0 = 110 }
        board.start(try question("Q2"))
        #expect(board.close()?.closedAt == 110)
        #expect(board.close() == nil, "nothing open")
        #expect(heard.changes.withLock { $0 } == [
            "started Q1", "voted 0 from - by fan: [1, 0]", "voted 1 from 0 by fan: [0, 1]",
            "closed Q1 at 110.0", "started Q2", "closed Q2 at 110.0",
        ])
        #expect(board.current?.question.question == "Q2", "the last poll stays until a new one starts")
    }

    /// Taking the closed result off the bar is told once (the event API's `poll_dismissed`: the
    /// dock reads the boards again); an open poll, or one already dismissed, is not.
    @Test func aDismissalIsToldOnceAndOnlyForAClosedPoll() throws {
        let board = PollBoard(clock: { 100 })
        let heard = Heard()
        board.listen(heard.record)
        board.start(try question("Q"))
        #expect(!board.dismiss(), "an open poll is not dismissed")
        board.close()
        #expect(!board.currentAndDismissed.dismissed)
        #expect(board.dismiss())
        #expect(!board.dismiss(), "once")
        #expect(board.currentAndDismissed.dismissed)
        #expect(heard.changes.withLock { $0 } == ["started Q", "closed Q at 100.0", "dismissed Q"])
        board.start(try question("Next"))
        #expect(!board.currentAndDismissed.dismissed, "a new poll is on the bar")
    }

    @Test func aTimedPollClosesItselfOnceAtItsMoment() async throws {
        let board = PollBoard()
        let heard = Heard()
        board.listen(heard.record)
        let poll = board.start(try question("Timed"), seconds: 0.2)
        let deadline = ContinuousClock.now + .seconds(5)
        while heard.changes.withLock({ $0.count < 2 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = board.current
        #expect(board.close() == nil)
        let changes = heard.changes.withLock { $0 }
        #expect(changes.first == "started Timed")
        #expect(changes.dropFirst() == ["closed Timed at \(poll.closesAt ?? 0)"])
        board.stop()
    }
}
