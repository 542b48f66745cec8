// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A file replaced whole, so that a reader never sees half of it: the bytes go to a new file
/// beside it, which is then renamed over it. The new file's name is random and it is created
/// with `O_EXCL | O_NOFOLLOW | O_NONBLOCK`: whatever already stands at a name (a symlink into
/// another folder, a FIFO that would block the writer forever, another program's file) is never
/// opened, written or truncated; another random name is tried instead.
public enum FileReplacement {
    /// Writes `bytes` as `path` with `mode`. Why not, or nil. `sync`: on disk before the rename
    /// (a file the user made and would miss after a power cut, not one rewritten every second).
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644, sync: Bool = false) -> String? {
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            temporary = temporaryName(for: path)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        if fchmod(fd, mode) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil { failure = writeAll(fd, bytes) }
        if failure == nil, sync, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// `/dir/.name.1f2e3d4c5b6a7988.new`: in the same folder (a rename cannot cross file
    /// systems), hidden, and not guessable by another user who would put something there first.
    static func temporaryName(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() as UInt64, radix: 16)
        return "\(folder).\(name).\(suffix).new"
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                let count = write(fd, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += count
            }
            return nil
        }
    }
}
