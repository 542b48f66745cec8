// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarTestSupport
import Foundation
import Logging
import XCTest
@testable import CommentBarServe

/// The looks in a running session (issue 38): the properties' "Save the look to a file" writes
/// the bar's look where the shim says, once per press.
final class LookSessionTests: XCTestCase {
    func testSaveTheLookWritesTheBarsLookOncePerPress() async throws {
        let folder = TemporaryFolder(prefix: "look-session")
        let first = folder.file("first.json"), second = folder.file("second.json")
        let sink = MemoryFrameSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        // The baseline (0) is no press; 1 is; the same line again is none; 2 with another file is.
        for line in [#"{"settings":{"service":"demo","width":320,"height":120,"theme":"box-outline"}}"#,
                     #"{"actions":{"save_theme":0,"save_theme_path":""}}"#,
                     #"{"actions":{"save_theme":1,"save_theme_path":"\#(first)"}}"#,
                     #"{"actions":{"save_theme":1,"save_theme_path":"\#(second)"}}"#] {
            input.yield(line)
        }
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") })
        let task = Task { await session.run(messages: messages) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: first), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertFalse(FileManager.default.fileExists(atPath: second), "a repeated line is no second press")
        input.yield(#"{"actions":{"save_theme":2,"save_theme_path":"\#(second)"}}"#)
        while !FileManager.default.fileExists(atPath: second), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        input.finish()
        await task.value

        let builtin = try BarSettings.decode(json: Data(#"{"theme":"box-outline"}"#.utf8))
        for path in [first, second] {
            let saved = ThemeFiles.resolved(try BarSettings.decode(json: Data(#"{"theme":"\#(path)"}"#.utf8)))
            XCTAssertNil(saved.themeProblem, path)
            XCTAssertEqual(saved.look, builtin.look, "the saved file loads as the bar's look")
        }
        XCTAssertEqual(folder.files(), ["first.json", "second.json"], "nothing else is left beside them")
    }
}
