// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import CommentBarFeeds
import Foundation
import Synchronization
import Testing

/// A stream id that is not the channel (a YouTube video, a niconico programme): the feed names
/// its channel (`FeedEvent.channel`) and the memory keeps viewers, sessions and 初見 on it.
@Suite struct ChannelIdentityTests {
    static let channelID = "UCabcdefghijklmnopqrstuv"
    static let channel = ChannelRef(platform: "youtube", channel: channelID)

    private func hook(_ folder: TemporaryFolder) -> MemoryHook {
        let hook = MemoryHook(log: CapturedLog().logger)
        var settings = BarSettings()
        settings.remember = true
        settings.logPath = folder.database
        settings.firstTimeLabel = "first"
        hook.command(settings: settings, obs: nil)
        return hook
    }

    /// One stream of the bar, as OBS would run it: its own hook (a renderer), stopped at the end.
    private func stream(_ folder: TemporaryFolder, video: String, _ events: [FeedEvent]) async -> [FeedEvent] {
        let hook = hook(folder)
        let feed = hook.feed(ScriptedFeed(events: events), address: StreamAddress(service: "youtube", streamID: video),
                             isReplay: false)
        let seen = Mutex<[FeedEvent]>([])
        await feed.run { event in seen.withLock { $0.append(event) } }
        hook.stop()
        return seen.withLock { $0 }
    }

    private func rows(_ events: [FeedEvent]) -> [String: ChatLine] {
        var rows: [String: ChatLine] = [:]
        for case .comment(let line) in events { rows[line.login ?? line.user] = line }
        return rows
    }

    @Test func twoVideosOfOneChannelAreOneChannel() async throws {
        let folder = TemporaryFolder()
        let first = await stream(folder, video: "video000001", [
            .status(.connecting), .channel(id: Self.channelID), .status(.live),
            .comment(comment("1", "alice", "hello")),
        ])
        #expect(first.contains(.channel(id: Self.channelID)), "the bar gets the event too (the control page renames the stream)")
        #expect(rows(first)["alice"]?.marks.map(\.text) == ["first"])
        #expect(rows(first)["alice"]?.channel == Self.channelID)

        let second = await stream(folder, video: "video000002", [
            .status(.connecting), .channel(id: Self.channelID), .status(.live),
            .comment(comment("2", "alice", "back again")),
            .comment(comment("3", "bob", "hi, new here")),
        ])
        #expect(rows(second)["alice"]?.marks.isEmpty == true, "alice wrote on this channel in the last stream: not first")
        // The last session of the channel ended a moment ago (a restart mid-stream): its rows start
        // the bar, found by the channel the feed named, not by the video's id.
        let history = second.compactMap { event -> String? in
            if case .comment(let line) = event, line.isHistory { return line.text }
            return nil
        }
        #expect(history == ["hello"])
        #expect(second.firstIndex(of: .channel(id: Self.channelID)).map { $0 > 1 } == true, "history comes first")
        #expect(rows(second)["bob"]?.marks.map(\.text) == ["first"])

        let log = try ChatLog(path: folder.database)
        let viewers = Dictionary(uniqueKeysWithValues: try log.viewers(of: Self.channel).map { ($0.key.user, $0) })
        #expect(viewers["alice"]?.streams == 2)
        #expect(viewers["alice"]?.comments == 2)
        #expect(viewers["bob"]?.streams == 1)
        for video in ["video000001", "video000002"] {
            let byVideo = ChannelRef(platform: "youtube", channel: video)
            #expect(try log.viewers(of: byVideo).isEmpty, "nothing is kept on the video's id")
            #expect(throws: ChatMemoryError.self) { try log.session("latest", channel: byVideo) }
        }
        #expect(try log.session("latest", channel: Self.channel).endedAt != nil)
    }

    /// A relay says it is live when it connects and names its channel after: no session is
    /// left on the relay's address, and a live run without a comment is still a session.
    @Test func aChannelNamedAfterLiveAndARunWithoutComments() async throws {
        let folder = TemporaryFolder()
        let relayed = await stream(folder, video: "relay-address", [
            .status(.live), .channel(id: Self.channelID), .comment(comment("1", "carol", "hello")),
        ])
        #expect(rows(relayed)["carol"]?.channel == Self.channelID)
        let quiet = await stream(folder, video: "video000003", [.channel(id: Self.channelID), .status(.live)])
        #expect(quiet.suffix(2) == [.channel(id: Self.channelID), .status(.live)])
        #expect(rows(quiet)["carol"]?.isHistory == true, "the relay's session a moment ago starts the bar")
        let log = try ChatLog(path: folder.database)
        #expect(throws: ChatMemoryError.self) {
            try log.session("latest", channel: ChannelRef(platform: "youtube", channel: "relay-address"))
        }
        let sessions = try log.session("latest", channel: Self.channel)
        #expect(sessions.endedAt != nil, "the quiet run is the channel's latest session")
        #expect(try log.viewers(of: Self.channel).map(\.key.user) == ["carol"])
    }

    @Test func aChannelIDThatIsNoIDIsIgnored() async throws {
        let folder = TemporaryFolder()
        let seen = await stream(folder, video: "video000004", [
            .channel(id: "two words"), .channel(id: ""), .comment(comment("1", "dave", "hi")),
        ])
        #expect(rows(seen)["dave"]?.channel == "video000004")
    }
}
