// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// Where the chat log lives, and the file operations around it (no SQLite here).
public enum MemoryFiles {
    /// `$XDG_DATA_HOME/comment-bar/chat.sqlite3`, or `~/.local/share/comment-bar/chat.sqlite3`
    /// when XDG_DATA_HOME is unset or not absolute (as the XDG spec says to treat it).
    public static func defaultPath(environment: [String: String]? = nil) -> String? {
        func value(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let data = value("XDG_DATA_HOME"), data.hasPrefix("/") {
            return join(data, "comment-bar/chat.sqlite3")
        }
        guard let home = value("HOME"), home.hasPrefix("/") else { return nil }
        return join(home, ".local/share/comment-bar/chat.sqlite3")
    }

    /// The `log_path` setting, or the default.
    public static func path(setting: String) -> String? {
        let trimmed = setting.trimmingWhitespace(andNewlines: true)
        return trimmed.isEmpty ? defaultPath() : trimmed
    }

    private static func join(_ folder: String, _ rest: String) -> String {
        folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
    }

    struct FileError: Error, CustomStringConvertible {
        var description: String
        /// errno, for telling a full disk or a read-only folder from other failures.
        var code: Int32
    }

    /// mkdir -p for the file's folder; new folders are the user's only (0700).
    static func makeParentFolder(of path: String) throws(FileError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        var built = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                let code = errno
                throw FileError(description: "cannot make the folder \(built): \(String(cString: strerror(code)))", code: code)
            }
        }
    }

    /// Makes the file if it is missing, readable and writable by the user only (SQLite would
    /// make it 0644).
    static func createPrivately(_ path: String) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw FileError(description: "cannot open \(path): \(String(cString: strerror(code)))", code: code)
        }
        close(fd)
    }

    /// Renames a damaged log (and its -wal and -shm) to `PATH.corrupt-YYYYMMDD-HHMMSS`, never
    /// deleting anything, so a new one can start. Returns the new name of the main file.
    static func moveAside(_ path: String, now: Double) throws(FileError) -> String {
        var seconds = time_t(now)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
        var target = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while access(target, F_OK) == 0 {
            attempt += 1
            target = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        guard rename(path, target) == 0 else {
            let code = errno
            throw FileError(description: "cannot move \(path) aside: \(String(cString: strerror(code)))", code: code)
        }
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            _ = rename(path + suffix, target + suffix)
        }
        return target
    }
}

extension MemoryFiles {
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
