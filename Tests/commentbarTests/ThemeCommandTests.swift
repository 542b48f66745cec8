// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarServe
@testable import commentbar
import Foundation
import XCTest

/// `commentbar render --theme` and `commentbar theme` (issue 38): a theme that cannot be used is one
/// line naming the file and the key, and exit status 2.
final class ThemeCommandTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "theme-command-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func exitCode(_ body: () async throws -> Void) async -> Int32? {
        do {
            try await body()
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            return nil
        }
    }

    func testRenderWithAThemeItCannotUseDrawsWithoutItAndExitsTwo() async throws {
        let bad = try write("bad.json", #"{"layout": "grid"}"#)
        let out = folder + "/bar.png"
        var render = try Render.parse(["--theme", bad, "--out", out, "--at", "5", "--width", "320", "--height", "120"])
        let code = await exitCode { try await render.run() }
        XCTAssertEqual(code, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out), "the bar is drawn, without the theme")

        let good = try write("good.json", #"{"layout": "box", "text_outline": 2}"#)
        render = try Render.parse(["--theme", good, "--out", out, "--at", "5", "--width", "320", "--height", "120"])
        let fine = await exitCode { try await render.run() }
        XCTAssertEqual(fine, 0)
    }

    func testCheckAndExport() async throws {
        let good = try write("good.json", #"{"layout": "ticker"}"#)
        let bad = try write("bad.json", #"{"ticker_speed": 5}"#)
        let checked = await exitCode { try ThemeCommand.Check.parse([good]).run() }
        XCTAssertEqual(checked, 0)
        let refused = await exitCode { try ThemeCommand.Check.parse([bad]).run() }
        XCTAssertEqual(refused, 2)
        let unknown = await exitCode { try ThemeCommand.Check.parse(["no-such-theme"]).run() }
        XCTAssertEqual(unknown, 2)

        let exported = folder + "/exported.json"
        let done = await exitCode { try ThemeCommand.Export.parse(["--theme", "box-outline", "--out", exported]).run() }
        XCTAssertEqual(done, 0)
        let again = ThemeFiles.resolved(try BarSettings.decode(json: Data(#"{"theme":"\#(exported)"}"#.utf8)))
        let builtin = try BarSettings.decode(json: Data(#"{"theme":"box-outline"}"#.utf8))
        XCTAssertNil(again.themeProblem)
        XCTAssertEqual(again.look, builtin.look, "an exported theme loads as the same look")
        let failed = await exitCode { try ThemeCommand.Export.parse(["--theme", bad]).run() }
        XCTAssertEqual(failed, 2)
    }
}
