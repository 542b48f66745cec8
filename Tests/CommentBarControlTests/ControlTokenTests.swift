// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarTestSupport
import Glibc
import Synchronization
import Testing

@Suite struct ControlTokenTests {
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
        let scratch = TemporaryFolder(prefix: "control-token")
        let folder = scratch.file("comment-bar")
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
        let (one, two) = (TemporaryFolder(prefix: "control-token"), TemporaryFolder(prefix: "control-token"))
        let a = try ControlToken.load(folder: one.file("comment-bar"))
        let b = try ControlToken.load(folder: two.file("comment-bar"))
        #expect(a.token != b.token)
    }

    @Test func aFileOthersCouldReadIsReplaced() throws {
        let scratch = TemporaryFolder(prefix: "control-token")
        let folder = scratch.file("comment-bar")
        let first = try ControlToken.load(folder: folder)
        chmod(folder + "/control-token", 0o644)
        let second = try ControlToken.load(folder: folder)
        #expect(second.token != first.token)
        #expect(second.note?.contains("could be read by others") == true)
        #expect(Self.mode(folder + "/control-token") == 0o600)
    }

    @Test func aFileWithoutATokenIsReplacedAndAnOpenFolderClosed() throws {
        let scratch = TemporaryFolder(prefix: "control-token")
        let folder = scratch.path
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

    /// `control-url --rotate`: a new token in the file, which a running server's watch takes at
    /// its next look (and says so once).
    @Test func aRotatedTokenReplacesTheFileAndTheWatchSeesIt() throws {
        let scratch = TemporaryFolder(prefix: "control-token")
        let folder = scratch.file("comment-bar")
        let watch = try TokenWatch(folder: folder, log: TestSupport.log)
        let first = try #require(watch.current())
        let changes = Mutex(0)
        watch.onChange { changes.withLock { $0 += 1 } }
        #expect(watch.current() == first)
        let second = try ControlToken.rotate(folder: folder)
        #expect(second != first && second.count == 64)
        #expect(Self.contents(folder + "/control-token") == second + "\n")
        #expect(Self.mode(folder + "/control-token") == 0o600)
        #expect(watch.current() == second)
        #expect(watch.current() == second)
        #expect(changes.withLock { $0 } == 1)
        // Deleted (the old way to revoke): a new one is made at the next look.
        unlink(folder + "/control-token")
        let third = try #require(watch.current())
        #expect(third != second && changes.withLock { $0 } == 2)
        // A file others could read is not trusted: a new one again.
        chmod(folder + "/control-token", 0o644)
        #expect(watch.current() != third)
    }

    @Test func comparingIgnoresNothingAndRefusesEmpty() {
        #expect(ControlToken.matches("abc", "abc"))
        #expect(!ControlToken.matches("abd", "abc"))
        #expect(!ControlToken.matches("ab", "abc"))
        #expect(!ControlToken.matches("", ""))
    }
}
