// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarOneComme
import CommentBarTestSupport
import Glibc
import XCTest

/// A path never leaves its template's folder: `..` however it is written, encoded slashes, hidden
/// files, NULs and links are refused before or while a file is opened.
final class TemplatePathTests: XCTestCase {
    func testAPlainPathIsItsSegments() {
        XCTAssertEqual(TemplatePath.segments("/templates/custom/mine/js/app.js?x=1"), ["templates", "custom", "mine", "js", "app.js"])
        XCTAssertEqual(TemplatePath.segments("/templates/custom/%E3%82%8F%E3%82%93/"), ["templates", "custom", "わん", "index.html"])
    }

    func testTraversalIsRefusedHoweverItIsWritten() {
        for path in ["/templates/custom/../../etc/passwd", "/templates/custom/%2e%2e/%2e%2e/etc/passwd",
                     "/templates/custom/%2E%2E/x", "/templates/custom/mine/..%2f..%2fx", "/templates/custom/a%2fb/c",
                     "/templates/custom/mine/.git/config", "/templates/custom/mine/a%00b", "/templates/custom/mine/a\\b",
                     "/templates/custom//x", "/templates/custom/mine/%zz", "/templates/custom/mine/%ff%fe",
                     "/templates/custom/./x"] {
            XCTAssertNil(TemplatePath.segments(Substring(path)), path)
            XCTAssertEqual(OneCommeRoute(path: path), .refused, path)
        }
        // Decoded once: %252e is the text "%2e", a name like any other.
        XCTAssertEqual(TemplatePath.segments("/templates/custom/%252e%252e/x"), ["templates", "custom", "%2e%2e", "x"])
    }

    func testRoutes() {
        XCTAssertEqual(OneCommeRoute(path: "/"), .index)
        XCTAssertEqual(OneCommeRoute(path: "/api/comments"), .api("comments"))
        XCTAssertEqual(OneCommeRoute(path: "/api/comments/pinned"), .api("comments/pinned"))
        // The control server's routes are not this server's: under /api/ a JSON error at once, as for
        // OneComme's routes the bar does not serve.
        for name in ["events", "pin", "unpin", "viewer", "speech", "search", "plugins/flow-comment"] {
            XCTAssertEqual(OneCommeRoute(path: "/api/\(name)?x=1"), .unservedAPI(name), name)
        }
        XCTAssertEqual(OneCommeRoute(path: "/control"), .notFound)
        XCTAssertEqual(OneCommeRoute(path: "/templates/preset/__origin/js/onesdk.js"), .origin(["js", "onesdk.js"]))
        XCTAssertEqual(OneCommeRoute(path: "/templates/custom/__origin/css/common.css"), .origin(["css", "common.css"]))
        XCTAssertEqual(OneCommeRoute(path: "/templates/preset/bar/"), .preset(name: "bar", path: ["index.html"]))
        XCTAssertEqual(OneCommeRoute(path: "/templates/custom/mine/style.css"), .custom(name: "mine", path: ["style.css"]))
        XCTAssertEqual(OneCommeRoute(path: "/templates/custom/わん"), .redirect("/templates/custom/%E3%82%8F%E3%82%93/"))
        XCTAssertEqual(OneCommeRoute(path: "/sub?p=comments"), .subscription)
    }

    func testLinksInsideTheTemplatesFolderAreNeverFollowed() throws {
        let folder = TemporaryFolder()
        let root = folder.file("templates")
        let outside = folder.file("secret.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: outside, contents: Data("secret".utf8)))
        try FileManager.default.createDirectory(atPath: root + "/mine/js", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/mine/index.html", contents: Data("<p>mine</p>".utf8)))
        XCTAssertEqual(symlink(outside, root + "/mine/link.txt"), 0)
        XCTAssertEqual(symlink(folder.path, root + "/mine/up"), 0)
        XCTAssertEqual(symlink(root + "/mine", root + "/linked"), 0)
        XCTAssertEqual(mkfifo(root + "/mine/pipe", 0o600), 0)
        let files = TemplateFiles(root: root)
        XCTAssertEqual(files.read(["mine", "index.html"]), .file(Array("<p>mine</p>".utf8)))
        XCTAssertEqual(files.read(["mine", "missing.html"]), .notFound)
        guard case .refused = files.read(["mine", "link.txt"]) else { return XCTFail("a link to a file was followed") }
        guard case .refused = files.read(["mine", "up", "secret.txt"]) else { return XCTFail("a link to a folder was followed") }
        guard case .refused = files.read(["linked", "index.html"]) else { return XCTFail("a linked template was followed") }
        guard case .refused = files.read(["mine", "pipe"]) else { return XCTFail("a FIFO was opened as a file") }
        XCTAssertEqual(files.names(), ["mine"])
    }
}
