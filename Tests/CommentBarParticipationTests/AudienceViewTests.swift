// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
@testable import CommentBarParticipation
import Synchronization
import Testing

/// What the bar shows of the boards (issue 48): the poll's counts and seconds left, the closed
/// result until dismissed, the open queue, the giveaway's winner until dismissed; and every change the bar shows
/// rings the boards' watcher, those the event API does not tell too.
@Suite struct AudienceViewTests {
    let twitch = ChannelRef(platform: "twitch", channel: "streamer")

    func comment(_ text: String, from login: String) -> ChatLine {
        ChatLine(id: "\(login)-\(text)", user: login.uppercased(), login: login, text: text)
    }

    final class Rings: Sendable {
        let count = Mutex(0)
        func ring() { count.withLock { $0 += 1 } }
        var now: Int { count.withLock { $0 } }
    }

    @Test func thePollCountsDownInWholeSecondsAndStaysClosedUntilDismissed() throws {
        let now = Mutex(100.0)
        let polls = PollBoard(clock: { now.withLock { $0 } })
        let rings = Rings()
        polls.watch(rings.ring)
        let (queue, giveaways) = (QueueBoard(), GiveawayBoard())
        func view() -> AudienceView {
            AudienceView(polls: polls, queue: queue, giveaways: giveaways, now: now.withLock { $0 })
        }
        #expect(view().isEmpty)
        polls.start(try PollQuestion(question: "Map?", options: ["Dust", "Mirage"]), seconds: 30)
        polls.take(comment("!vote 2", from: "a"), channel: twitch)
        polls.take(comment("Mirage", from: "b"), channel: twitch)
        polls.take(comment("!vote 1", from: "c"), channel: twitch)
        now.withLock { $0 = 100.5 }
        #expect(view().poll == AudienceView.PollView(question: "Map?", options: [.init(text: "Dust", votes: 1),
                                                                                  .init(text: "Mirage", votes: 2)],
                                                     secondsLeft: 30))
        #expect(view().poll?.leading == 1)
        now.withLock { $0 = 129.2 }
        #expect(view().poll?.secondsLeft == 1, "0.8 s left shows as 1, never 0 while open")
        #expect(!polls.dismiss(), "an open poll is not dismissed")
        now.withLock { $0 = 131 }
        #expect(view().poll?.closed == true)
        #expect(view().poll?.secondsLeft == nil)
        let before = rings.now
        #expect(polls.dismiss())
        #expect(rings.now == before + 1, "a dismissal rings once")
        #expect(view().poll == nil)
        #expect(polls.current != nil, "the result stays for GET /api/poll")
        #expect(rings.now >= 5, "the start and the three votes rang")
    }

    @Test func theQueueShowsWhileOpenWithTheNextFiveAndTheWinnerWithItsPlatform() throws {
        let (polls, queue, giveaways) = (PollBoard(), QueueBoard(), GiveawayBoard())
        let rings = Rings()
        queue.watch(rings.ring)
        queue.open(rules: JoinRules(capacity: 7))
        #expect(rings.now == 1, "opening rings")
        for index in 0..<7 { queue.take(comment("!join", from: "v\(index)"), channel: twitch, standing: Standing()) }
        _ = queue.next(1)
        queue.take(comment("!join", from: "late"), channel: twitch, standing: Standing())
        let shown = try #require(AudienceView(polls: polls, queue: queue, giveaways: giveaways, now: 0).queue)
        #expect(shown.playing == ["V0"])
        #expect(shown.next == ["V1", "V2", "V3", "V4", "V5"])
        #expect(shown.waiting == 7)
        #expect(shown.full)
        let beforeDone = rings.now
        queue.done()
        #expect(rings.now == beforeDone + 1, "players done rings")
        queue.close()
        #expect(AudienceView(polls: polls, queue: queue, giveaways: giveaways, now: 0).queue == nil)

        try giveaways.start(word: "!gift", rules: GiveawayRules(), seconds: nil)
        giveaways.take(comment("!gift", from: "lucky"), channel: twitch, firstTime: false)
        #expect(AudienceView(polls: polls, queue: queue, giveaways: giveaways, now: 0).winner == nil, "no draw yet")
        _ = giveaways.draw()
        #expect(AudienceView(polls: polls, queue: queue, giveaways: giveaways, now: 0).winner
            == AudienceView.WinnerView(name: "LUCKY", platform: "twitch"))
        giveaways.watch(rings.ring)
        let beforeDismissal = rings.now
        #expect(giveaways.dismiss())
        #expect(rings.now == beforeDismissal + 1, "a dismissal rings once")
        #expect(AudienceView(polls: polls, queue: queue, giveaways: giveaways, now: 0).winner == nil, "dismissed: off the bar")
    }
}
