// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
@testable import CommentBarParticipation
import Synchronization
import Testing

/// The 参加型 queue: one place per account over every stream, the words, the capacity, the rules,
/// calling the next ones and the times each account played.
@Suite struct JoinQueueTests {
    let twitch = ChannelRef(platform: "twitch", channel: "streamer")
    let youtube = ChannelRef(platform: "youtube", channel: "UCstreamer")

    func comment(_ text: String, from login: String) -> ChatLine {
        ChatLine(id: "\(login)-\(text)", user: login.capitalized, login: login, text: text)
    }

    @Test func viewersJoinOnceAndLeaveWithTheirWords() {
        var queue = JoinQueue()
        #expect(queue.take(comment("!join", from: "a"), channel: twitch, standing: Standing()) == .joined(place: 1))
        #expect(queue.take(comment("！参加", from: "b"), channel: youtube, standing: Standing()) == .joined(place: 2))
        #expect(queue.take(comment("!JOIN", from: "a"), channel: twitch, standing: Standing()) == .alreadyIn(place: 1))
        // The same login on another platform is another account.
        #expect(queue.take(comment("!join", from: "a"), channel: youtube, standing: Standing()) == .joined(place: 3))
        #expect(queue.take(comment("!join please", from: "c"), channel: twitch, standing: Standing()) == .notAWord)
        #expect(queue.take(comment("!キャンセル", from: "b"), channel: youtube, standing: Standing()) == .left)
        #expect(queue.take(comment("!leave", from: "b"), channel: youtube, standing: Standing()) == .notWaiting)
        #expect(queue.waiting.map(\.viewer.user) == ["a", "a"])
        #expect(queue.waiting.map(\.name) == ["A", "A"])
    }

    @Test func aFullQueueSaysSoAndTheRulesKeepViewersOut() {
        var queue = JoinQueue(rules: JoinRules(capacity: 1, minimumStreamsSeen: 2, membersOnly: true))
        #expect(queue.take(comment("!join", from: "new"), channel: twitch, standing: Standing(streamsSeen: 1))
                == .refused("regulars only: seen on 1 of the 2 earlier streams needed"))
        #expect(queue.take(comment("!join", from: "guest"), channel: twitch, standing: Standing(streamsSeen: 5, member: false))
                == .refused("members only"))
        #expect(queue.take(comment("!join", from: "hidden"), channel: twitch, standing: Standing(streamsSeen: 5, hidden: true))
                == .refused("hidden by the streamer"))
        // A platform that does not say who is a member lets its regulars in.
        #expect(queue.take(comment("!join", from: "regular"), channel: youtube, standing: Standing(streamsSeen: 3))
                == .joined(place: 1))
        #expect(queue.take(comment("!join", from: "sub"), channel: twitch, standing: Standing(streamsSeen: 3, member: true))
                == .full)
    }

    @Test func firstTimeViewersGoFirstInTheOrderTheyCame() {
        var queue = JoinQueue(rules: JoinRules(firstTimeFirst: true))
        _ = queue.take(comment("!join", from: "regular1"), channel: twitch, standing: Standing(streamsSeen: 4))
        #expect(queue.take(comment("!join", from: "new1"), channel: twitch, standing: Standing(firstTime: true)) == .joined(place: 1))
        #expect(queue.take(comment("!join", from: "new2"), channel: youtube, standing: Standing(firstTime: true)) == .joined(place: 2))
        _ = queue.take(comment("!join", from: "regular2"), channel: twitch, standing: Standing(streamsSeen: 4))
        #expect(queue.waiting.map(\.viewer.user) == ["new1", "new2", "regular1", "regular2"])
    }

    @Test func theStreamerCallsTheNextOnesAndEachAccountsPlaysAreCounted() {
        var queue = JoinQueue()
        for login in ["a", "b", "c"] { _ = queue.take(comment("!join", from: login), channel: twitch, standing: Standing()) }
        let called = queue.next(2)
        #expect(called.map(\.viewer.user) == ["a", "b"])
        #expect(called.map(\.played) == [1, 1], "this time counted")
        #expect(queue.playing.map(\.played) == [1, 1])
        // Playing now: joining again says so; once done, they may join again and go to the back.
        #expect(queue.take(comment("!join", from: "a"), channel: twitch, standing: Standing()) == .playing)
        queue.markDone()
        #expect(queue.take(comment("!join", from: "a"), channel: twitch, standing: Standing()) == .joined(place: 2))
        #expect(queue.waiting.map(\.played) == [0, 1])
        let moved = queue.move(ViewerKey(channel: twitch, user: "a"), to: 1)
        #expect(moved)
        let next = queue.next()
        #expect(next.map(\.viewer.user) == ["a"])
        #expect(queue.playing.first?.played == 2)
        let removed = queue.remove(ViewerKey(channel: twitch, user: "C"))
        let removedNobody = queue.remove(ViewerKey(channel: twitch, user: "nobody"))
        #expect(removed && !removedNobody)
        #expect(queue.waiting.isEmpty)
        let none = queue.next()
        #expect(none.isEmpty)
        #expect(queue.playing.isEmpty)
    }

    /// The board shows its whole queue after each change, in order (the OneComme server's waiting
    /// list follows it): opened, joined, called, done, removed, closed; a word that changes
    /// nothing shows nothing.
    @Test func theBoardShowsEveryChangeOfItsQueue() {
        let board = QueueBoard()
        let shown = Mutex<[String]>([])
        board.follow { queue in
            let text = queue.map { "playing=\($0.playing.map(\.viewer.user)) waiting=\($0.waiting.map(\.viewer.user))" } ?? "closed"
            shown.withLock { $0.append(text) }
        }
        board.open(rules: JoinRules())
        board.take(comment("!join", from: "a"), channel: twitch, standing: Standing())
        board.take(comment("!join", from: "b"), channel: youtube, standing: Standing())
        board.take(comment("hello", from: "c"), channel: twitch, standing: Standing())
        _ = board.next(1)
        board.done()
        board.done()
        board.remove(ViewerKey(channel: youtube, user: "b"))
        board.close()
        #expect(shown.withLock { $0 } == [
            "playing=[] waiting=[]", "playing=[] waiting=[\"a\"]", "playing=[] waiting=[\"a\", \"b\"]",
            "playing=[\"a\"] waiting=[\"b\"]", "playing=[] waiting=[\"b\"]", "playing=[] waiting=[]", "closed",
        ])
    }

    /// A viewer's plays count on across queues: the queue opened again after a close says how many
    /// times each account played before (as OneComme's order items do).
    @Test func timesPlayedCountOnInTheNextQueue() {
        let board = QueueBoard()
        board.open(rules: JoinRules())
        board.take(comment("!join", from: "a"), channel: twitch, standing: Standing())
        #expect(board.next(1).map(\.played) == [1])
        board.close()
        board.open(rules: JoinRules())
        board.take(comment("!join", from: "a"), channel: twitch, standing: Standing())
        board.take(comment("!join", from: "b"), channel: twitch, standing: Standing())
        #expect(board.current?.waiting.map(\.played) == [1, 0], "a played once in the queue before")
        #expect(board.next(1).map(\.played) == [2])
    }

    /// What the streamer does to the queue is told too (the event API's `queue_changed`: the dock
    /// reads the boards again when it comes): opening, a move, players done, closing; a move or a
    /// done that changes nothing is not.
    @Test func theStreamersChangesAreToldWithTheWholeQueue() {
        let board = QueueBoard()
        let told = Mutex<[String]>([])
        board.listen { change in
            let text: String
            switch change {
            case .joined(let entry, let place): text = "joined \(entry.viewer.user) at \(place)"
            case .left(let viewer): text = "left \(viewer.user)"
            case .called(let called): text = "called \(called.map(\.viewer.user))"
            case .changed(let queue):
                text = queue.map { "changed playing=\($0.playing.map(\.viewer.user)) waiting=\($0.waiting.map(\.viewer.user))" }
                    ?? "changed closed"
            }
            told.withLock { $0.append(text) }
        }
        board.open(rules: JoinRules(capacity: 5))
        board.take(comment("!join", from: "a"), channel: twitch, standing: Standing())
        board.take(comment("!join", from: "b"), channel: twitch, standing: Standing())
        #expect(board.move(ViewerKey(channel: twitch, user: "b"), to: 1) != nil)
        #expect(board.move(ViewerKey(channel: twitch, user: "nobody"), to: 1) == nil)
        board.done()  // nobody plays: nothing changes
        _ = board.next(1)
        board.done()
        board.close()
        board.close()  // closed already
        #expect(told.withLock { $0 } == [
            "changed playing=[] waiting=[]", "joined a at 1", "joined b at 2", "changed playing=[] waiting=[\"b\", \"a\"]",
            "called [\"b\"]", "changed playing=[] waiting=[\"a\"]", "changed closed",
        ])
    }
}
