// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import Glibc
import Testing

@Suite struct ControlTokenTests {
    /// A new folder under /tmp for one test.
    static func scratch() -> String {
        var template = Array("/tmp/commentbar-token-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkdtemp($0) } } ?? nil
        return made != nil ? TestSupport.text(template) : "/tmp/commentbar-token-fallback-\(getpid())"
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0o7777
    }

    static func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        return fgets(&buffer, 256, file) != nil ? TestSupport.text(buffer) : ""
    }

    @Test func madeOnceOnlyTheUserCanReadItAndReused() throws {
        let folder = Self.scratch() + "/comment-bar"
        let first = try ControlToken.load(folder: folder)
        #expect(first.token.count == 64)
        #expect(first.token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(first.note != nil)
        #expect(Self.mode(folder) == 0o700)
        #expect(Self.mode(folder + "/control-token") == 0o600)
        #expect(Self.contents(folder + "/control-token") == first.token + "\n")
        let second = try ControlToken.load(folder: folder)
        #expect(second.token == first.token)
        #expect(second.note == nil)
    }

    @Test func twoLoadsNeverGiveTheSameNewToken() throws {
        let a = try ControlToken.load(folder: Self.scratch() + "/comment-bar")
        let b = try ControlToken.load(folder: Self.scratch() + "/comment-bar")
        #expect(a.token != b.token)
    }

    @Test func aFileOthersCouldReadIsReplaced() throws {
        let folder = Self.scratch() + "/comment-bar"
        let first = try ControlToken.load(folder: folder)
        chmod(folder + "/control-token", 0o644)
        let second = try ControlToken.load(folder: folder)
        #expect(second.token != first.token)
        #expect(second.note?.contains("could be read by others") == true)
        #expect(Self.mode(folder + "/control-token") == 0o600)
    }

    @Test func aFileWithoutATokenIsReplacedAndAnOpenFolderClosed() throws {
        let folder = Self.scratch()
        chmod(folder, 0o755)
        let path = folder + "/control-token"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        _ = write(fd, "not a token\n", 12)
        close(fd)
        let loaded = try ControlToken.load(folder: folder)
        #expect(loaded.token.count == 64)
        #expect(Self.contents(path) == loaded.token + "\n")
        #expect(Self.mode(folder) == 0o700)
    }

    @Test func comparingIgnoresNothingAndRefusesEmpty() {
        #expect(ControlToken.matches("abc", "abc"))
        #expect(!ControlToken.matches("abd", "abc"))
        #expect(!ControlToken.matches("ab", "abc"))
        #expect(!ControlToken.matches("", ""))
    }
}
