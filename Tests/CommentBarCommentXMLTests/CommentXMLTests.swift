// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCommentXML
import CommentBarCore
import CommentBarSupport
import CommentBarTestSupport
import Foundation
import Glibc
import Synchronization
import XCTest

/// comment.xml as HTML5コメジェネ and NiCommentGenerator read it: `handle` always set, the newest
/// 100, escaped text, written whole at most every interval, `no` growing at a fixed width, each
/// write's new rows a later second than the last, never an empty `<log>`, the rows a file had kept,
/// and a folder that cannot be written (or a file that is not comment.xml) one status line.
final class CommentXMLTests: XCTestCase {
    /// Unix seconds running ten times as fast as the wall clock: a test waits 100 ms for a new second.
    static func fastClock(from start: Double = 1_800_000_000) -> @Sendable () -> Double {
        let began = ContinuousClock.now
        return {
            let elapsed = ContinuousClock.now - began
            return start + elapsed.inSeconds * 10
        }
    }

    func writer(_ log: CapturedLog = CapturedLog(), interval: Duration = .milliseconds(20)) -> CommentXMLWriter {
        CommentXMLWriter(log: log.logger, interval: interval, clock: Self.fastClock())
    }

    /// The file's rows, read back with GLib's parser (the Python tests read it with ElementTree).
    func rows(_ path: String) throws -> [CommentXMLRow] {
        try XCTUnwrap(CommentXMLFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
    }

    func testARowHasItsHandleAndEscapedText() {
        var line = ChatLine(id: "m1", user: "Taro", login: "taro", text: "<b>hi</b> & \"bye\"", sentAt: 1_700_000_000)
        line.nickname = "たろう"
        var row = CommentXMLRow(line: line, platform: "youtube")
        row.stamp(number: 7, time: 1_700_000_001)
        XCTAssertEqual(row.xml, #"<comment no="0000000007" time="1700000001" owner="0" service="youtubelive" handle="たろう">"#
                       + "&lt;b&gt;hi&lt;/b&gt; &amp; &quot;bye&quot;</comment>")
        let plain = CommentXMLRow(line: ChatLine(id: "m2", user: "Hanako", text: "x"), platform: "niconico")
        XCTAssertEqual(plain.handle, "Hanako")
        XCTAssertEqual(plain.service, "nicolive")
        let gift = CommentXMLRow(line: ChatLine(id: "g", user: "G", text: "ありがとう", kind: .gift(name: "¥500", count: 1)),
                                 platform: "youtube")
        XCTAssertEqual(gift.text, "¥500 ありがとう")
    }

    /// HTML5コメジェネ hides or strips a leading `/` (a command) and reads `{#RRGGBB}` and
    /// `[name]` in a handle as a colour and a skin's picture; an empty element throws there.
    func testTextAndHandleAreInertForTheReaders() {
        let row = CommentXMLRow(line: ChatLine(id: "a", user: "{#FF0000}[boss]", text: "/disconnect now"), platform: "twitch")
        XCTAssertEqual(row.text, "／disconnect now")
        XCTAssertEqual(row.handle, "｛#FF0000｝［boss］")
        XCTAssertEqual(CommentXMLRow(line: ChatLine(id: "b", user: "u", text: ""), platform: "twitch").text, "…")
        XCTAssertEqual(CommentXMLRow(line: ChatLine(id: "c", user: "", text: "x"), platform: "twitch").handle, "?")
    }

    func testTheDocumentKeepsTheNewest100() {
        var document = CommentXMLDocument()
        for number in 0..<150 {
            document.append(CommentXMLRow(id: "m\(number)", service: "twitch", handle: "u", text: "t\(number)"))
        }
        document.stamp(at: 5)
        XCTAssertEqual(document.rows.count, 100)
        XCTAssertEqual(document.rows.first?.number, 1, "the 50 oldest never reached a file")
        XCTAssertEqual(document.rows.first?.text, "t50")
        XCTAssertEqual(document.rows.last?.number, 100)
        XCTAssertTrue(document.text?.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<log>\n") == true)
        XCTAssertTrue(document.text?.hasSuffix("</log>\n") == true)
    }

    /// NiCommentGenerator takes a row as new only when its time is later than the last row it read.
    func testEachWritesNewRowsAreALaterSecondAndNumbersGrow() {
        var document = CommentXMLDocument()
        XCTAssertNil(document.text, "no row: no file (never an empty <log>)")
        document.append(CommentXMLRow(id: "a", service: "twitch", handle: "u", text: "1"))
        document.append(CommentXMLRow(id: "b", service: "youtubelive", handle: "u", text: "2"))
        XCTAssertTrue(document.mayStamp(at: 100))
        document.stamp(at: 100)
        document.append(CommentXMLRow(id: "c", service: "twitch", handle: "u", text: "3"))
        XCTAssertFalse(document.mayStamp(at: 100), "not in the second of the last write that added rows")
        XCTAssertTrue(document.mayStamp(at: 101))
        document.stamp(at: 101)
        XCTAssertEqual(document.rows.map(\.time), [100, 100, 101])
        XCTAssertEqual(document.rows.map(\.number), [1, 2, 3])
        XCTAssertTrue(document.rows[2].xml.hasPrefix(#"<comment no="0000000003" time="101""#), document.rows[2].xml)
        // A clock put back never makes time go back.
        document.append(CommentXMLRow(id: "d", service: "twitch", handle: "u", text: "4"))
        document.stamp(at: 90)
        XCTAssertEqual(document.rows.last?.time, 101)
    }

    func testWritesAreSpacedAndWhole() async throws {
        let folder = TemporaryFolder()
        let writer = CommentXMLWriter(log: CapturedLog().logger, interval: .milliseconds(300), clock: Self.fastClock())
        writer.configure(path: folder.file("comment.xml"))
        let start = ContinuousClock.now
        for number in 0..<200 {
            writer.add(ChatLine(id: "m\(number)", user: "u\(number)", text: "comment \(number)"), platform: "twitch")
            try await Task.sleep(for: .milliseconds(5))
        }
        let elapsed = ContinuousClock.now - start
        try await Task.sleep(for: .milliseconds(700))
        await writer.stop()
        // At most one file per interval (and the first at once), each the whole list.
        XCTAssertLessThanOrEqual(writer.written, Int(elapsed / .milliseconds(300)) + 3)
        XCTAssertGreaterThanOrEqual(writer.written, 2)
        let text = try String(contentsOfFile: folder.file("comment.xml"), encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "<comment ").count - 1, 100)
        XCTAssertTrue(text.contains(">comment 199</comment>"))
        XCTAssertEqual(folder.files(), ["comment.xml"], "no temporary file left beside it")
    }

    /// As MultiCommentViewer does: the rows the file had stay, and the numbers go on after them.
    func testTheRowsTheFileHadAreKeptAndNumberingGoesOn() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("comment.xml")
        // As MultiCommentViewer saves it (.NET's XElement.Save): a byte order mark, CRLF.
        let before = "\u{FEFF}" + #"<?xml version="1.0" encoding="utf-8"?>"# + "\r\n<log>\r\n" + #"<comment no="41" time="1700000000" owner="0" "#
            + #"service="nicolive" handle="古参">前の配信 &amp; more</comment>"# + "\r\n</log>"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(before.utf8)))
        let writer = writer()
        writer.configure(path: path)
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(before.utf8), "nothing new: the file as it was")
        writer.add(ChatLine(id: "n", user: "New", text: "こんばんは"), platform: "youtube")
        try await waitUntil { (try? self.rows(path).count) == 2 }
        await writer.stop()
        let rows = try rows(path)
        XCTAssertEqual(rows.map(\.number), [41, 42])
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains(#"<comment no="0000000041" time="1700000000""#))
        XCTAssertEqual(rows.map(\.text), ["前の配信 & more", "こんばんは"])
        XCTAssertGreaterThan(rows.last?.time ?? 0, 1_700_000_000)
    }

    /// NiCommentGenerator never shows the first file it reads and stops for good after an empty
    /// `<log>`: a new file holds a seed row neither reader shows, and is never emptied.
    func testANewFileIsSeededAndNeverEmptied() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("comment.xml")
        let writer = writer()
        writer.configure(path: path)
        try await waitUntil { FileManager.default.fileExists(atPath: path) }
        let seed = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(seed.contains(#"<comment no="0000000000" time="0" owner="1" service="commentbar" handle="CommentBar">"#), seed)
        writer.add(ChatLine(id: "a", user: "Spammer", login: "spammer", text: "spam"), platform: "twitch")
        try await waitUntil { (try? self.rows(path).count) == 2 }
        writer.remove(user: "spammer")
        try await waitUntil { (try? self.rows(path).count) == 1 }
        await writer.stop()
        XCTAssertEqual(try rows(path).map(\.text), ["comment.xml"], "the spam is gone, the file never empty")
    }

    func testAFileThatIsNotCommentXMLOrNotAFileIsNeverWrittenOver() async throws {
        let folder = TemporaryFolder()
        let notes = folder.file("notes.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: notes, contents: Data("my notes".utf8)))
        XCTAssertEqual(mkfifo(folder.file("fifo.xml"), 0o600), 0)
        for (path, expected) in [(notes, "is not a comment.xml"), (folder.file("fifo.xml"), "is not a regular file")] {
            let log = CapturedLog()
            let writer = writer(log)
            writer.configure(path: path)
            writer.add(ChatLine(id: "a", user: "u", text: "hello"), platform: "twitch")
            try await waitUntil { writer.problems.current != nil }
            XCTAssertTrue(writer.problems.current?.contains(expected) == true, writer.problems.current ?? "")
            await writer.stop()
            XCTAssertEqual(log.messages.filter { $0.hasPrefix("comment.xml: \(path)") }.count, 1, "\(log.messages)")
        }
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes")
    }

    func testAFolderThatCannotBeWrittenIsOneStatusLine() async throws {
        let folder = TemporaryFolder()
        let log = CapturedLog()
        let writer = writer(log, interval: .milliseconds(50))
        writer.configure(path: folder.file("missing/comment.xml"))
        for number in 0..<5 {
            writer.add(ChatLine(id: "m\(number)", user: "u", text: "t"), platform: "twitch")
            try await Task.sleep(for: .milliseconds(80))
        }
        XCTAssertEqual(writer.problems.current?.hasPrefix("comment.xml: cannot write \(folder.file("missing/comment.xml"))"), true)
        XCTAssertEqual(log.messages.filter { $0.hasPrefix("comment.xml: cannot write") }.count, 1, "\(log.messages)")
        // The folder appears: the next change writes, and the line goes.
        XCTAssertEqual(mkdir(folder.file("missing"), 0o700), 0)
        writer.add(ChatLine(id: "m9", user: "u", text: "t"), platform: "twitch")
        try await waitUntil { writer.problems.current == nil }
        await writer.stop()
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("missing/comment.xml")))
    }

    func testDeletionsLeaveTheFile() async throws {
        let folder = TemporaryFolder()
        let writer = writer()
        writer.configure(path: folder.file("comment.xml"))
        writer.add(ChatLine(id: "a", user: "Spammer", login: "spammer", text: "spam"), platform: "twitch")
        writer.add(ChatLine(id: "b", user: "Fan", text: "hello"), platform: "twitch")
        writer.add(ChatLine(id: "c", user: "Fan", text: "oops"), platform: "twitch")
        writer.remove(user: "SPAMMER")
        writer.remove(id: "c")
        try await waitUntil { FileManager.default.fileExists(atPath: folder.file("comment.xml")) }
        await writer.stop()
        let text = try String(contentsOfFile: folder.file("comment.xml"), encoding: .utf8)
        XCTAssertFalse(text.contains("spam") || text.contains("oops"), text)
        XCTAssertTrue(text.contains(">hello</comment>"), text)
    }

    /// With several streams, one stream's clear and ban leave the other stream's rows (`RowID`).
    func testAStreamsClearLeavesTheOtherStreamsRows() async throws {
        let folder = TemporaryFolder()
        let writer = writer()
        writer.configure(path: folder.file("comment.xml"))
        writer.add(ChatLine(id: RowID("a", stream: 0).text, user: "Fan", login: "fan", text: "from zero"), platform: "twitch")
        writer.add(ChatLine(id: RowID("a", stream: 1).text, user: "Fan", login: "fan", text: "from one"), platform: "youtube")
        writer.add(ChatLine(id: RowID("b", stream: 1).text, user: "Other", text: "kept"), platform: "youtube")
        writer.remove(stream: 0)
        writer.remove(user: "fan", stream: 1)
        try await waitUntil { FileManager.default.fileExists(atPath: folder.file("comment.xml")) }
        await writer.stop()
        let text = try String(contentsOfFile: folder.file("comment.xml"), encoding: .utf8)
        XCTAssertFalse(text.contains("from zero") || text.contains("from one"), text)
        XCTAssertTrue(text.contains(">kept</comment>"), text)
    }

    func testARelativePathIsRefused() {
        let writer = CommentXMLWriter(log: CapturedLog().logger)
        writer.configure(path: "comment.xml")
        XCTAssertEqual(writer.problems.current?.contains("not a full path"), true)
    }

    private func waitUntil(_ condition: @escaping () -> Bool, file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("timed out", file: file, line: line) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
