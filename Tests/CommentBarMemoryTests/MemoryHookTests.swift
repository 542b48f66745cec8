// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import CommentBarFeeds
import Foundation
import Synchronization
import Testing

/// The hook `serve` holds: settings turn it on and off, live feeds are wrapped, replays are not.
@Suite struct MemoryHookTests {
    private func settings(remember: Bool, path: String) -> BarSettings {
        var settings = BarSettings()
        settings.remember = remember
        settings.logPath = path
        return settings
    }

    private func run(_ feed: any CommentFeed) async -> [FeedEvent] {
        let seen = Mutex<[FeedEvent]>([])
        await feed.run { event in seen.withLock { $0.append(event) } }
        return seen.withLock { $0 }
    }

    private let address = StreamAddress(service: "twitch", streamID: "somechannel")
    private let events: [FeedEvent] = [
        .status(.live),
        .comment(comment("1", "alice", "hello")),
        .comment(comment("2", "alice", "again")),
    ]

    @Test func aLiveStreamIsBadgedAndLoggedInTheLanguageOBSSays() async throws {
        let folder = TemporaryFolder()
        let hook = MemoryHook(log: CapturedLog().logger)
        let bar = settings(remember: true, path: folder.database)
        hook.command(settings: bar, obs: nil)
        var obs = OBSLiveState()
        obs.locale = "ja-JP"
        hook.command(settings: nil, obs: obs)
        let seen = await run(hook.feed(ScriptedFeed(events: events), address: address, isReplay: false))
        #expect(seen.count == 3)
        if case .comment(let first) = seen[1] {
            #expect(first.marks.map(\.text) == ["初見"])
            #expect(first.channel == "somechannel")
        } else {
            Issue.record("the first comment went missing: \(seen)")
        }
        hook.stop()
        let viewers = try ChatLog(path: folder.database).viewers(of: ChannelRef(platform: "twitch", channel: "somechannel"))
        #expect(viewers.map(\.comments) == [2])
        #expect(hook.memory == nil, "stopped: not opened again")
    }

    @Test func replaysAndRememberOffTouchNoFile() async {
        let folder = TemporaryFolder()
        let hook = MemoryHook(log: CapturedLog().logger)
        var bar = settings(remember: true, path: folder.database)
        hook.command(settings: bar, obs: nil)
        let replayed = await run(hook.feed(ScriptedFeed(events: events), address: StreamAddress(service: "file", streamID: "x"),
                                          isReplay: true))
        #expect(replayed == events, "a replay passes untouched")
        #expect(folder.files().isEmpty, "and opens nothing")
        bar.remember = false
        hook.command(settings: bar, obs: nil)
        let off = await run(hook.feed(ScriptedFeed(events: events), address: address, isReplay: false))
        #expect(off == events)
        #expect(folder.files().isEmpty)
        #expect(hook.memory == nil)
        hook.stop()
    }

    /// `remember` turned on while another program holds the log's write lock: opening the log
    /// holds neither the caller nor the frame loop's `problem` (it took 2 s inside the hook's lock).
    @Test func rememberTurnedOnWhileTheLogIsLockedHoldsNobody() async throws {
        let folder = TemporaryFolder()
        _ = try ChatStore(path: folder.database)
        let other = try SQLiteConnection(path: folder.database, mode: .readWrite)
        try other.execute("BEGIN IMMEDIATE")
        let hook = MemoryHook(log: CapturedLog().logger)
        hook.command(settings: settings(remember: true, path: folder.database), obs: nil)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(hook.memory != nil)
        _ = hook.problem
        #expect(clock.now - start < .milliseconds(200), "opening the log waited \(clock.now - start)")
        let seen = await run(hook.feed(ScriptedFeed(events: events), address: address, isReplay: false))
        #expect(seen.count == 3, "the rows pass while the log is locked")
        try other.execute("COMMIT")
        hook.stop()
        #expect(try ChatLog(path: folder.database).viewers(of: nil).map(\.comments) == [2], "and are written after")
    }

    @Test func theLogPathSettingMovesTheLog() async throws {
        let folder = TemporaryFolder()
        let hook = MemoryHook(log: CapturedLog().logger)
        var bar = settings(remember: true, path: folder.path + "/one.sqlite3")
        hook.command(settings: bar, obs: nil)
        _ = await run(hook.feed(ScriptedFeed(events: events), address: address, isReplay: false))
        bar.logPath = folder.path + "/two.sqlite3"
        hook.command(settings: bar, obs: nil)
        _ = await run(hook.feed(ScriptedFeed(events: [.comment(comment("3", "bob", "hi"))]), address: address, isReplay: false))
        hook.stop()
        #expect(try ChatLog(path: folder.path + "/one.sqlite3").viewers(of: nil).map(\.key.user) == ["alice"])
        #expect(try ChatLog(path: folder.path + "/two.sqlite3").viewers(of: nil).map(\.key.user) == ["bob"])
    }
}
