// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarSupport
import CommentBarTestSupport
import Foundation
import Glibc
import Testing

/// Files replaced whole (comment.xml, saved looks): a FIFO or another program's file at a name
/// the writer used to use, or at the path itself, never hangs it, and nothing is left beside.
@Suite struct FileReplacementTests {
    @Test func replacesTheFileWholeWithItsModeAndLeavesNothingBeside() throws {
        let folder = TemporaryFolder()
        let path = folder.file("comment.xml")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        #expect(FileReplacement.replace(path, with: Array("new".utf8)) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(folder.files() == ["comment.xml"])
    }

    /// The fixed names of before (`.commentbar-new`, `.saving`) held a FIFO: opened blocking, it
    /// hung the writer for good. Any name there now is passed by.
    @Test func aFIFOAtAnOldTemporaryNameOrAtThePathNeverHangs() throws {
        let folder = TemporaryFolder()
        let path = folder.file("look.json")
        for name in ["look.json.commentbar-new", "look.json.saving"] {
            #expect(mkfifo(folder.file(name), 0o600) == 0)
        }
        #expect(FileReplacement.replace(path, with: Array("{}".utf8), sync: true) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}")
        // A FIFO at the path itself is replaced by the file, never opened.
        let fifo = folder.file("comment.xml")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileReplacement.replace(fifo, with: Array("<log/>".utf8)) == nil)
        #expect(try String(contentsOfFile: fifo, encoding: .utf8) == "<log/>")
        #expect(folder.files() == ["comment.xml", "look.json", "look.json.commentbar-new", "look.json.saving"])
    }

    @Test func aTemporaryNameIsHiddenBesideThePathAndUnguessable() {
        let first = FileReplacement.temporaryName(for: "/a/b/comment.xml")
        #expect(first.hasPrefix("/a/b/.comment.xml.") && first.hasSuffix(".new"))
        #expect(first != FileReplacement.temporaryName(for: "/a/b/comment.xml"))
    }

    @Test func aFolderThatIsMissingIsNamedNotThrown() {
        #expect(FileReplacement.replace("/nonexistent-\(getpid())/x.json", with: [1]) == "No such file or directory")
    }

    @Test func boundedReadNamesAFIFOAndAFolderWithoutBlocking() throws {
        let folder = TemporaryFolder()
        #expect(mkfifo(folder.file("fifo"), 0o600) == 0)
        #expect(BoundedFileRead.read(folder.file("fifo"), maxBytes: 10) == .refused(.notRegular))
        #expect(BoundedFileRead.read(folder.path, maxBytes: 10) == .refused(.folder))
        #expect(BoundedFileRead.read(folder.file("none"), maxBytes: 10) == .missing)
        #expect(FileManager.default.createFile(atPath: folder.file("big"), contents: Data(count: 11)))
        #expect(BoundedFileRead.read(folder.file("big"), maxBytes: 10) == .refused(.tooLarge(maxBytes: 10)))
        #expect(BoundedFileRead.Refusal.tooLarge(maxBytes: 4 << 20).description == "is larger than 4 MiB")
        #expect(BoundedFileRead.read(folder.file("big"), maxBytes: 11) == .bytes([UInt8](repeating: 0, count: 11)))
    }
}
