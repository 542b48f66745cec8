// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A regular file's bytes, at most a limit, read without ever blocking: the file is opened with
/// `O_NONBLOCK` and looked at (`fstat`) before a byte is read, so a FIFO or a device at the path
/// is named, not waited on. Theme files and the comment.xml a folder already has are read so.
public enum BoundedFileRead {
    public enum Outcome: Equatable, Sendable {
        case bytes([UInt8])
        case missing
        case refused(Refusal)
    }

    /// Why a file was not read; `description` says it after the path ("… is a folder, not a file").
    public enum Refusal: Equatable, Sendable, CustomStringConvertible {
        case folder
        case notRegular
        case tooLarge(maxBytes: Int)
        case unreadable(String)

        public var description: String {
            switch self {
            case .folder: return "is a folder, not a file"
            case .notRegular: return "is not a regular file (a FIFO, a socket or a device)"
            case .tooLarge(let maxBytes):
                let limit = maxBytes >= 1 << 20 ? "\(maxBytes >> 20) MiB" : maxBytes >= 1024 ? "\(maxBytes >> 10) KiB" : "\(maxBytes) bytes"
                return "is larger than \(limit)"
            case .unreadable(let why): return "cannot be read (\(why))"
            }
        }
    }

    public static func read(_ path: String, maxBytes: Int) -> Outcome {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .refused(.unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .refused(.unreadable(String(cString: strerror(errno)))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .refused(.folder)
        default: return .refused(.notRegular)
        }
        guard Int(info.st_size) <= maxBytes else { return .refused(.tooLarge(maxBytes: maxBytes)) }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(fd, base + count, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return .refused(.unreadable(String(cString: strerror(errno)))) }
            if got == 0 { break }
            count += got
        }
        // The file grew after fstat: still no more than the limit.
        guard count <= maxBytes else { return .refused(.tooLarge(maxBytes: maxBytes)) }
        return .bytes(Array(bytes.prefix(count)))
    }
}
