// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarFeeds
import Foundation
import InMemoryLogging
import Logging
import CommentBarTestSupport

extension TemporaryFolder {
    var database: String { file("chat.sqlite3") }
}

let testChannel = ChannelRef(platform: "twitch", channel: "streamer")

func comment(_ id: String, _ user: String, _ text: String, history: Bool = false, platformFirst: Bool = false) -> ChatLine {
    ChatLine(id: id, user: user.capitalized, login: user, text: text, isHistory: history, platformFirstMessage: platformFirst)
}

func now() -> Double { Date().timeIntervalSince1970 }

extension ChatMemory {
    /// Receives one comment on `testChannel` with `options`.
    func say(_ line: ChatLine, session: UInt64, options: MemoryOptions = MemoryOptions(), at time: Double = now(),
             channel: ChannelRef = testChannel) -> ChatLine? {
        receive(line, session: session, channel: channel, options: options, now: time)
    }
}

/// Waits until `condition` holds or `seconds` pass.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A feed that emits its events and ends.
struct ScriptedFeed: CommentFeed {
    let events: [FeedEvent]
    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        for event in events { emit(event) }
    }
}
