// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarFeeds
import Foundation
import Logging
import Synchronization

/// A folder of its own under the temporary folder, removed when the value goes.
final class TemporaryFolder: Sendable {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/commentbar-memory-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, let made = mkdtemp(base) else { return NSTemporaryDirectory() }
            return String(cString: made)
        }
    }

    var database: String { path + "/chat.sqlite3" }

    deinit {
        chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }

    func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? [] }
}

/// Log lines kept for the test to read.
final class CapturedLog: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    var all: [String] { lines.withLock { $0 } }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            log.lines.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }
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
