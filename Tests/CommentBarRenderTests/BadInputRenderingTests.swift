// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import Foundation
import Glibc
import XCTest

/// Hostile text and files: no crash, bounded work per frame, and the bar shows what it can.
final class BadInputRenderingTests: XCTestCase {
    @discardableResult
    private func render(_ lines: [ChatLine], settings: BarSettings = BarSettings()) -> BarRenderer {
        var state = BarState()
        state.status = .live
        for line in lines { state.apply(.comment(line)) }
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        XCTAssertTrue(renderer.render(state, now: 0, into: pool))
        return renderer
    }

    func testHostileTextRenders() {
        let invalidUTF8 = TextSanitizer.decodeLossy([0x61, 0xFF, 0xFE, 0xC3, 0x28, 0x62])
        XCTAssertEqual(invalidUTF8, "a\u{FFFD}\u{FFFD}\u{FFFD}(b")
        let hundredKB = String(repeating: "長いコメント long comment ", count: 5_000)
        let zalgo = "Z" + String(repeating: "\u{0301}\u{0336}\u{0489}", count: 20_000)
        let rightToLeft = "مرحبا بالعالم שלום עולם 123 hello"
        let controls = "bell\u{07}\u{1B}[31mred\u{0}nul\u{7F}\u{85}line\r\nbreak\u{202E}reversed"
        let lines = [
            ChatLine(id: "1", user: "bytes", text: invalidUTF8),
            ChatLine(id: "2", user: "long", text: hundredKB),
            ChatLine(id: String(repeating: "i", count: 1 << 20), user: String(repeating: "名", count: 10_000), text: zalgo),
            ChatLine(id: "4", user: "rtl", text: rightToLeft),
            ChatLine(id: "5", user: "ctl", text: controls),
        ]
        // What reaches the layout is bounded, whatever came in.
        for line in lines {
            XCTAssertLessThanOrEqual(line.text.unicodeScalars.count, TextSanitizer.maxTextScalars + 1)
            XCTAssertLessThanOrEqual(line.user.unicodeScalars.count, TextSanitizer.maxNameScalars + 1)
            XCTAssertLessThanOrEqual(line.id.unicodeScalars.count, TextSanitizer.maxIDScalars)
            XCTAssertFalse(line.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
        let renderer = render(lines)
        XCTAssertEqual(renderer.lastWork.kind, .composed)
        XCTAssertGreaterThan(renderer.lastWork.linesBlended, 0)
    }

    func testPathsThatAreNotFilesAreRefusedNotOpened() throws {
        // A FIFO would block an open() forever; it must be refused from its type alone.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("commentbar-fifo-\(UUID())").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        var settings = BarSettings()
        settings.avatarPath = fifo
        settings.backgroundPath = "/dev/zero"
        let renderer = render([], settings: settings)
        let notice = try XCTUnwrap(renderer.notice)
        XCTAssertTrue(notice.hasSuffix("not a regular file"), notice)
    }

    func testTextIsCutAndCleaned() {
        let long = ChatLine(id: "x", user: "u", text: String(repeating: "あ", count: 100_000))
        XCTAssertEqual(long.text.unicodeScalars.count, TextSanitizer.maxTextScalars + 1)
        XCTAssertTrue(long.text.hasSuffix("…"))
        let zalgo = ChatLine(id: "z", user: "u", text: "e" + String(repeating: "\u{0301}", count: 1_000))
        XCTAssertEqual(zalgo.text.unicodeScalars.count, 1 + TextSanitizer.maxCombiningRun)
        let controls = ChatLine(id: "c", user: "u\u{0}\u{1B}", text: "a\u{07}b\nc\u{9B}d")
        XCTAssertEqual(controls.user, "u")
        XCTAssertEqual(controls.text, "ab cd")
    }

    func testTenThousandCommentsAtOnceLayOutOnlyWhatShows() {
        var state = BarState()
        for index in 0..<10_000 {
            state.apply(.comment(ChatLine(id: "\(index)", user: "user\(index % 50)", text: "コメント \(index) 🎉")))
        }
        XCTAssertEqual(state.lines.count, BarState.retainedLines)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        renderer.render(state, now: 0, into: pool)
        XCTAssertLessThanOrEqual(renderer.lastWork.linesLaidOut, BarSettings().maxLines + 1)
    }

    func testAvatarThatIsNotAnImageShowsWhy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commentbar-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notImage = directory.appendingPathComponent("avatar.png")
        try Data("this is not a PNG".utf8).write(to: notImage)
        var settings = BarSettings()
        settings.avatarPath = notImage.path
        let renderer = render([ChatLine(id: "1", user: "u", text: "hi")], settings: settings)
        let notice = try XCTUnwrap(renderer.notice)
        XCTAssertTrue(notice.contains("avatar.png"), notice)

        settings.avatarPath = directory.appendingPathComponent("missing.jpg").path
        let missing = render([], settings: settings)
        XCTAssertNotNil(missing.notice)
    }

    /// Why an item could not be read aloud is a status line while the chat is live; the same
    /// notice again makes no frame, and the line goes when reading works again.
    func testASpeechProblemIsAStatusLineAndGoesAway() throws {
        var state = BarState()
        state.status = .live
        state.apply(.comment(ChatLine(id: "1", user: "u", text: "hi")))
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        XCTAssertTrue(renderer.render(state, now: 0, into: pool))
        XCTAssertNil(renderer.notice)
        let problem = "speech (voicevox): VOICEVOX /audio_query failed: connection refused\nsecond line"
        XCTAssertTrue(renderer.render(state, notice: problem, now: 0, into: pool))
        let shown = try XCTUnwrap(renderer.notice)
        XCTAssertTrue(shown.hasPrefix("speech (voicevox): VOICEVOX"), shown)
        XCTAssertFalse(shown.contains("\n"), "one line")
        XCTAssertFalse(renderer.render(state, notice: problem, now: 0, into: pool), "nothing changed: no frame")
        XCTAssertTrue(renderer.render(state, notice: nil, now: 0, into: pool))
        XCTAssertNil(renderer.notice)
    }

    func testRealImagesAreUsed() throws {
        // A PNG written by Cairo serves as an avatar and as its background.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commentbar-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bar.png").path
        let pool = MemoryFramePool(width: 300, height: 300)
        BarRenderer(settings: BarSettings(), width: 300, height: 300).render(BarState(), now: 0, into: pool)
        try PNGFile.write(try XCTUnwrap(pool.newestFrame), to: path)
        var settings = BarSettings()
        settings.avatarPath = path
        settings.backgroundPath = path
        let renderer = render([], settings: settings)
        XCTAssertNil(renderer.notice)
    }

    func testTinyAndHugeSizesRender() {
        for (width, height) in [(64, 64), (3840, 200), (200, 2000)] {
            let (state, now) = DemoScript.timeline.state(at: 20)
            let pool = MemoryFramePool(width: width, height: height)
            XCTAssertTrue(BarRenderer(settings: BarSettings(), width: width, height: height).render(state, now: now, into: pool))
        }
    }
}
