// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A regular file's bytes, at most a limit, read without ever blocking: the file is opened with
/// `O_NONBLOCK` and looked at (`fstat`) before a byte is read, so a FIFO or a device at the path
/// is named, not waited on.
public enum BoundedFileRead {
    public enum Outcome: Equatable, Sendable {
        case bytes([UInt8])
        case missing
        /// Why it was not read (for a message: "… is a FIFO, not a file").
        case refused(String)
    }

    public static func read(_ path: String, maxBytes: Int) -> Outcome {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .refused(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .refused(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .refused("a folder, not a file")
        default: return .refused("not a regular file (a FIFO, a socket or a device)")
        }
        guard Int(info.st_size) <= maxBytes else { return .refused(tooLarge(maxBytes)) }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(fd, base + count, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return .refused(String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        guard count <= maxBytes else { return .refused(tooLarge(maxBytes)) }
        return .bytes(Array(bytes.prefix(count)))
    }

    private static func tooLarge(_ maxBytes: Int) -> String {
        maxBytes >= 1 << 20 ? "larger than \(maxBytes >> 20) MiB" : maxBytes >= 1024 ? "larger than \(maxBytes >> 10) KiB"
            : "larger than \(maxBytes) bytes"
    }
}
