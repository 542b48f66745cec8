// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCommentXML
import CommentBarCore
import CommentBarTestSupport
import Foundation
import XCTest

/// HTML5コメジェネ's setting.xml named instead of comment.xml (MultiCommentViewer's convenience):
/// comment.xml is written in the folder its `<HcgPath>` names, the setting.xml is only read, and a
/// folder the bar cannot reach is one clear status line.
final class GeneratorSettingFileTests: XCTestCase {
    /// As .NET saves it (a byte order mark, CRLF), with the folder among other settings.
    func settingXML(folder: String) -> Data {
        Data(("\u{FEFF}" + #"<?xml version="1.0" encoding="utf-8"?>"# + "\r\n<HcgSetting>\r\n  <Enabled>true</Enabled>\r\n"
              + "  <HcgPath>\r\n    \(folder)\r\n  </HcgPath>\r\n</HcgSetting>").utf8)
    }

    func testTheBarWritesCommentXMLInTheFolderTheSettingNames() async throws {
        let folder = TemporaryFolder()
        XCTAssertEqual(mkdir(folder.file("HTML5コメジェネ"), 0o700), 0)
        let setting = folder.file("setting.xml")
        XCTAssertTrue(FileManager.default.createFile(atPath: setting, contents: settingXML(folder: folder.file("HTML5コメジェネ"))))
        let log = CapturedLog()
        let writer = CommentXMLWriter(log: log.logger, interval: .milliseconds(20), clock: CommentXMLTests.fastClock())
        writer.configure(path: setting)
        writer.add(ChatLine(id: "a", user: "Fan", text: "こんばんは"), platform: "youtube")
        let written = folder.file("HTML5コメジェネ/comment.xml")
        let deadline = ContinuousClock.now + .seconds(5)
        while !((try? String(contentsOfFile: written, encoding: .utf8))?.contains("こんばんは") ?? false) {
            guard ContinuousClock.now < deadline else { return XCTFail("no comment.xml in the folder: \(log.messages)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        await writer.stop()
        XCTAssertNil(writer.problems.current)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: setting)), settingXML(folder: folder.file("HTML5コメジェネ")),
                       "setting.xml is only read")
        XCTAssertTrue(log.messages.contains("comment.xml: writing \(written), in the folder \(setting) names"), "\(log.messages)")
    }

    func testWindowsFoldersMapThroughWinesDriveZOrAreRefused() {
        XCTAssertEqual(GeneratorSettingFile.commentXMLPath(inFolder: #"Z:\home\me\HTML5コメジェネ\"#, namedBy: "/s.xml"),
                       .commentXML("/home/me/HTML5コメジェネ/comment.xml"))
        XCTAssertEqual(GeneratorSettingFile.commentXMLPath(inFolder: "/home/me/hcg/", namedBy: "/s.xml"),
                       .commentXML("/home/me/hcg/comment.xml"))
        for (folder, why) in [(#"C:\Users\me\hcg"#, "a Windows folder"), ("hcg", "not a full path")] {
            guard case .refused(let message) = GeneratorSettingFile.commentXMLPath(inFolder: folder, namedBy: "/s.xml") else {
                return XCTFail("\(folder) was taken")
            }
            XCTAssertTrue(message.contains(why), message)
        }
    }

    func testASettingWithoutAFolderIsAStatusLineAndNothingIsWritten() async throws {
        let folder = TemporaryFolder()
        let setting = folder.file("Setting.xml")
        let contents = Data(#"<HcgSetting><Enabled>true</Enabled></HcgSetting>"#.utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: setting, contents: contents))
        let writer = CommentXMLWriter(log: CapturedLog().logger, interval: .milliseconds(20), clock: CommentXMLTests.fastClock())
        writer.configure(path: setting)
        writer.add(ChatLine(id: "a", user: "Fan", text: "hello"), platform: "youtube")
        let deadline = ContinuousClock.now + .seconds(5)
        while writer.problems.current == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        await writer.stop()
        XCTAssertEqual(writer.problems.current, "comment.xml: \(setting) has no <HcgPath> (HTML5コメジェネ's folder): "
                       + "name that folder's comment.xml instead")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: setting)), contents)
        XCTAssertEqual(folder.files(), ["Setting.xml"])
    }
}
