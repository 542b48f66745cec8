// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Reading an open file whole, once it was checked (a regular file, its size within a limit).
enum FileRead {
    /// The regular file at `fd`, of at most `limit` bytes, whole; else why not.
    static func whole(_ fd: Int32, limit: Int) -> Result<[UInt8], Refusal> {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(.unreadable) }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else { return .failure(.notAFile) }
        guard status.st_size <= limit else { return .failure(.tooLarge) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + done }, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        // A file that shrank while read is what was there.
        return .success(Array(bytes.prefix(done)))
    }

    enum Refusal: Error {
        case unreadable, notAFile, tooLarge
    }
}
