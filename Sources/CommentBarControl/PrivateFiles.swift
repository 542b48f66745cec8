// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc

/// Small files only this user may read, as the control token is kept: a folder of ours with mode
/// 0700 (never a symlink), files created 0600 with `O_CREAT|O_EXCL|O_NOFOLLOW` (a name someone
/// else made first, a symlink or a FIFO there, is never written through), and read back only if
/// they are regular files of ours that no one else could have written or read.
enum PrivateFiles {
    struct Problem: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    /// `folder`, made 0700 if missing; it must be a folder of ours (not a symlink), closed to others.
    static func folder(_ folder: String) throws(Problem) {
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw Problem(description: "cannot make \(folder): \(ControlToken.errnoText())")
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Problem(description: "\(folder) is not a folder")
        }
        guard info.st_uid == getuid() else { throw Problem(description: "\(folder) belongs to another user") }
        if info.st_mode & 0o077 != 0 && chmod(folder, 0o700) != 0 {
            throw Problem(description: "\(folder) is open to others and cannot be closed: \(ControlToken.errnoText())")
        }
    }

    /// A new file `path` holding `text` (false: the name exists, whatever it is).
    static func create(_ path: String, _ text: String) throws(Problem) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return false }
            throw Problem(description: "cannot write \(path): \(ControlToken.errnoText())")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let modeSet = fchmod(fd, 0o600) == 0
        let closed = close(fd) == 0
        guard written == bytes.count, modeSet, closed else {
            unlink(path)
            throw Problem(description: "cannot write \(path): \(ControlToken.errnoText())")
        }
        return true
    }

    /// `path` holds `text` from now on, 0600, replaced whole (`FileReplacement`: a new file of a
    /// random name beside it, then renamed over it).
    static func replace(_ path: String, _ text: String) throws(Problem) {
        if let why = FileReplacement.replace(path, with: Array(text.utf8), mode: 0o600) {
            throw Problem(description: "cannot replace \(path): \(why)")
        }
    }

    /// The text of `path` if it is a regular file of ours that only we can read and write (nil:
    /// missing, or not to be trusted), at most `limit` bytes.
    static func read(_ path: String, limit: Int = 4096) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
              info.st_mode & 0o077 == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}
