// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// A folder of its own under the temporary folder (mkdtemp: nobody else's, mode 0700), removed
/// with everything in it when the value goes.
public final class TemporaryFolder: Sendable {
    public let path: String

    /// `prefix`: the start of the folder's name, so a leftover folder says which test made it.
    public init(prefix: String = "commentbar-test") {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress, let made = mkdtemp(start) else { return base }
            return String(cString: made)
        }
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, sorted.
    public func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? [] }

    deinit {
        // A test may have taken its own permissions away (an unwritable folder): give them back first.
        chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }
}
