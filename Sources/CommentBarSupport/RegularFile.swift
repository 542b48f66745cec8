// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Checks that a path names a regular file no larger than a limit, without opening it.
public enum RegularFile {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public static func check(_ path: String, maxBytes: Int) throws(Problem) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Problem(description: "\(path): \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Problem(description: "\(path): not a regular file") }
        guard Int(info.st_size) <= maxBytes else {
            throw Problem(description: "\(path): larger than \(maxBytes >> 20) MiB")
        }
    }
}
