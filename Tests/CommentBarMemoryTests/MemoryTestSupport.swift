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

/// Waits until `condition` holds or `seconds` pass (XCTest: its tests run one at a time on the
/// main thread).
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// `eventually` for swift-testing, suspended between looks: swift-testing runs every test on the
/// cooperative pool (two threads on a 2-core machine), so a test that blocks a thread to wait
/// stalls every other test's awaits, and with them their time limits.
func waitUntil(_ seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Runs `work` (seconds of SQLite, say) on a thread of its own, not on the cooperative pool that
/// every other swift-testing test's awaits need (see `waitUntil`).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Waits `seconds` without holding a thread (see `waitUntil`).
func pause(_ seconds: Double) async {
    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
}

/// A feed that emits its events and ends.
struct ScriptedFeed: CommentFeed {
    let events: [FeedEvent]
    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        for event in events { emit(event) }
    }
}
