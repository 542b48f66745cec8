// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarTestSupport
import Testing

/// The control page's search cannot run for long: a phrase's trigrams are capped (the rest of it
/// checked in each row found) and a deadline cuts it short.
@Suite struct SearchLimitsTests {
    let folder = TemporaryFolder()

    private func fill(_ texts: [String]) throws -> ChatReader {
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        for (number, text) in texts.enumerated() { _ = memory.say(comment("\(number)", "viewer\(number % 50)", text), session: session) }
        memory.close()
        return try ChatReader(path: folder.database)
    }

    @Test func aPhraseLongerThanTheCapMatchesWhole() throws {
        let start = String(repeating: "ab", count: ChatReader.maxPhraseTrigrams)
        let reader = try fill([start + " the end we want", start + " another end", "unrelated"])
        #expect(try reader.search(ChatQuery(text: start + " the end we want")).map(\.messageID) == ["0"])
        #expect(try reader.search(ChatQuery(text: start)).count == 2, "the control: the start alone finds both")
    }

    @Test func aSearchPastItsDeadlineGivesWhatItFoundOrSaysSo() throws {
        let reader = try fill((0..<3_000).map { "lol " + String(repeating: "w", count: 20 + $0 % 40) })
        let cut = try reader.search(ChatQuery(text: String(repeating: "w", count: 200)), within: .nanoseconds(1))
        #expect(!cut.complete)
        let whole = try reader.search(ChatQuery(text: "www", limit: 5), within: .seconds(30))
        #expect(whole.complete && whole.rows.count == 5, "the control: in its time, the search completes")
    }

    @Test func theMemorysSearchSaysWhenItTookTooLong() async throws {
        _ = try fill((0..<3_000).map { "lol " + String(repeating: "w", count: 30 + $0 % 60) })
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        // 200 w: no row holds so many; the index walk is cut at the deadline before it found any.
        await #expect(throws: ChatMemoryError("the search took too long; try a longer or rarer phrase")) {
            try await memory.search(ChatQuery(text: String(repeating: "w", count: 200)), deadline: .nanoseconds(1))
        }
        #expect(try await memory.search(ChatQuery(text: "lol", limit: 3)).count == 3, "the control: in its time it answers")
        memory.close()
    }
}
