// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCommentXML
import CommentBarCore
import CommentBarTestSupport
import Foundation
import Glibc
import XCTest

/// comment.xml as HTML5コメジェネ reads it: `handle` always set, the newest 100, escaped text,
/// written whole at most every interval, and a folder that cannot be written one status line.
final class CommentXMLTests: XCTestCase {
    func testARowHasItsHandleAndEscapedText() {
        var line = ChatLine(id: "m1", user: "Taro", login: "taro", text: "<b>hi</b> & \"bye\"", sentAt: 1_700_000_000)
        line.nickname = "たろう"
        let row = CommentXMLRow(line: line, platform: "youtube", number: 7, now: 0)
        XCTAssertEqual(row.xml, #"<comment no="7" time="1700000000" owner="0" service="youtubelive" handle="たろう">"#
                       + "&lt;b&gt;hi&lt;/b&gt; &amp; &quot;bye&quot;</comment>")
        let plain = CommentXMLRow(line: ChatLine(id: "m2", user: "Hanako", text: "x"), platform: "niconico", number: 1, now: 5)
        XCTAssertEqual(plain.handle, "Hanako")
        XCTAssertEqual(plain.service, "nicolive")
        let gift = CommentXMLRow(line: ChatLine(id: "g", user: "G", text: "ありがとう", kind: .gift(name: "¥500", count: 1)),
                                 platform: "youtube", number: 2, now: 5)
        XCTAssertEqual(gift.text, "¥500 ありがとう")
    }

    func testTheDocumentKeepsTheNewest100() {
        var document = CommentXMLDocument()
        for number in 0..<150 {
            document.append { CommentXMLRow(id: "m\(number)", number: $0, time: 1, service: "twitch", handle: "u", text: "t\(number)") }
        }
        XCTAssertEqual(document.rows.count, 100)
        XCTAssertEqual(document.rows.first?.number, 51)
        XCTAssertEqual(document.rows.last?.number, 150)
        XCTAssertTrue(document.text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<log>\n"))
        XCTAssertTrue(document.text.hasSuffix("</log>\n"))
    }

    func testWritesAreSpacedAndWhole() async throws {
        let folder = TemporaryFolder()
        let writer = CommentXMLWriter(log: CapturedLog().logger, interval: .milliseconds(300))
        writer.configure(path: folder.file("comment.xml"))
        let start = ContinuousClock.now
        for number in 0..<200 {
            writer.add(ChatLine(id: "m\(number)", user: "u\(number)", text: "comment \(number)"), platform: "twitch", now: 1)
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

    func testAFolderThatCannotBeWrittenIsOneStatusLine() async throws {
        let folder = TemporaryFolder()
        let log = CapturedLog()
        let writer = CommentXMLWriter(log: log.logger, interval: .milliseconds(50))
        writer.configure(path: folder.file("missing/comment.xml"))
        for number in 0..<5 {
            writer.add(ChatLine(id: "m\(number)", user: "u", text: "t"), platform: "twitch", now: 1)
            try await Task.sleep(for: .milliseconds(80))
        }
        XCTAssertEqual(writer.problems.current?.hasPrefix("comment.xml: cannot write \(folder.file("missing/comment.xml"))"), true)
        XCTAssertEqual(log.messages.filter { $0.hasPrefix("comment.xml: cannot write") }.count, 1, "\(log.messages)")
        // The folder appears: the next change writes, and the line goes.
        XCTAssertEqual(mkdir(folder.file("missing"), 0o700), 0)
        writer.add(ChatLine(id: "m9", user: "u", text: "t"), platform: "twitch", now: 1)
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertNil(writer.problems.current)
        await writer.stop()
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("missing/comment.xml")))
    }

    func testDeletionsLeaveTheFile() async throws {
        let folder = TemporaryFolder()
        let writer = CommentXMLWriter(log: CapturedLog().logger, interval: .milliseconds(20))
        writer.configure(path: folder.file("comment.xml"))
        writer.add(ChatLine(id: "a", user: "Spammer", login: "spammer", text: "spam"), platform: "twitch", now: 1)
        writer.add(ChatLine(id: "b", user: "Fan", text: "hello"), platform: "twitch", now: 1)
        writer.add(ChatLine(id: "c", user: "Fan", text: "oops"), platform: "twitch", now: 1)
        writer.remove(user: "SPAMMER")
        writer.remove(id: "c")
        try await Task.sleep(for: .milliseconds(200))
        await writer.stop()
        let text = try String(contentsOfFile: folder.file("comment.xml"), encoding: .utf8)
        XCTAssertFalse(text.contains("spam") || text.contains("oops"), text)
        XCTAssertTrue(text.contains(">hello</comment>"), text)
    }

    func testARelativePathIsRefused() {
        let writer = CommentXMLWriter(log: CapturedLog().logger)
        writer.configure(path: "comment.xml")
        XCTAssertEqual(writer.problems.current?.contains("not a full path"), true)
    }
}
