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

    func testTraversalIsRefusedHoweverItIsWritten() throws {
        for path in ["/templates/custom/../../etc/passwd", "/templates/custom/%2e%2e/%2e%2e/etc/passwd",
                     "/templates/custom/%2E%2E/x", "/templates/custom/mine/..%2f..%2fx", "/templates/custom/a%2fb/c",
                     "/templates/custom/mine/.git/config", "/templates/custom/mine/a%00b", "/templates/custom/mine/a\\b",
                     "/templates/custom//x", "/templates/custom/mine/%zz", "/templates/custom/mine/%ff%fe",
                     "/templates/custom/./x"] {
            XCTAssertNil(TemplatePath.segments(Substring(path)), path)
            let rest = try XCTUnwrap(OneCommeRoutes.route(for: Substring(path))?.rest, path)
            XCTAssertEqual(TemplateAddress(set: "custom", rest: rest), .refused, path)
        }
        // Decoded once: %252e is the text "%2e", a name like any other.
        XCTAssertEqual(TemplatePath.segments("/templates/custom/%252e%252e/x"), ["templates", "custom", "%2e%2e", "x"])
    }

    /// The route a path lands on, by its first pattern, and the rest of the path after it.
    private func landing(_ path: String) -> (String, Substring)? {
        OneCommeRoutes.route(for: OneCommeRoutes.path(of: path)).map { ($0.route.paths[0], $0.rest) }
    }

    func testRoutes() throws {
        XCTAssertEqual(landing("/")?.0, "/")
        XCTAssertEqual(landing("/templates")?.0, "/")
        XCTAssertEqual(landing("/api/comments")?.0, "/api/comments")
        XCTAssertEqual(landing("/api/comments/pinned")?.0, "/api/comments/pinned")
        // The control server's routes are not this server's: under /api/ a JSON error at once, as for
        // OneComme's routes the bar does not serve.
        for name in ["events", "pin", "unpin", "viewer", "speech", "search", "plugins/flow-comment"] {
            let (pattern, rest) = try XCTUnwrap(landing("/api/\(name)?x=1"), name)
            XCTAssertEqual(pattern, "/api/*", name)
            XCTAssertEqual(rest, Substring(name))
        }
        XCTAssertNil(landing("/control"))
        XCTAssertNil(landing("/templates/other/x"))
        XCTAssertEqual(landing("/templates/preset/__origin/js/onesdk.js")?.0, "/templates/preset/__origin/*")
        XCTAssertEqual(landing("/templates/custom/__origin/css/common.css")?.1, "css/common.css")
        XCTAssertEqual(landing("/templates/preset/bar/")?.0, "/templates/preset/*")
        XCTAssertEqual(TemplateAddress(set: "preset", rest: "bar/"), .file(name: "bar", path: ["index.html"]))
        XCTAssertEqual(landing("/templates/custom/mine/style.css")?.0, "/templates/custom/*")
        XCTAssertEqual(TemplateAddress(set: "custom", rest: "mine/style.css"), .file(name: "mine", path: ["style.css"]))
        XCTAssertEqual(TemplateAddress(set: "custom", rest: "わん"), .redirect("/templates/custom/%E3%82%8F%E3%82%93/"))
        XCTAssertEqual(TemplateAddress(set: "custom", rest: ""), .notFound)
        XCTAssertEqual(landing("/sub?p=comments")?.0, "/sub")
    }

    func testOnlyReadsAreTaken() {
        XCTAssertNil(OneCommeRoutes.refusal(method: .GET, uri: "/api/comments"))
        XCTAssertNil(OneCommeRoutes.refusal(method: .HEAD, uri: "/templates/preset/bar/"))
        let api = OneCommeRoutes.refusal(method: .POST, uri: "/api/plugins/x")
        XCTAssertEqual(api?.status, .methodNotAllowed)
        XCTAssertTrue(api?.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("application/json") } ?? false)
        XCTAssertTrue(api?.headers.contains { $0.name == "Allow" && $0.value == "GET, HEAD" } ?? false)
        let page = OneCommeRoutes.refusal(method: .DELETE, uri: "/templates/preset/bar/")
        XCTAssertTrue(page?.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("text/plain") } ?? false)
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
