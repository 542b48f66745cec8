// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The control server's secret: 256 random bits as 64 hex digits, made once per user and kept
/// in `$XDG_CONFIG_HOME/comment-bar/control-token` (`~/.config/comment-bar/` when unset), a file
/// only the user can read (0600, its folder 0700) and never in OBS's scene collection. Every
/// source's server and `commentbar control-url` read the same file; a running server notices a
/// new one at once (`TokenWatch`). `commentbar control-url --rotate` (`rotate`), or deleting the
/// file, makes a new one: the old one stops working and every page must be opened again.
public enum ControlToken {
    public static let fileName = "control-token"
    static let hexDigits = 64

    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The token, and a line for the log when something was mended (a new token was made).
    public struct Loaded: Sendable, Equatable {
        public var token: String
        public var note: String?
    }

    /// `$XDG_CONFIG_HOME/comment-bar`, else `$HOME/.config/comment-bar` (nil: neither is set).
    public static func folder() -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/comment-bar" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.config/comment-bar" }
        return nil
    }

    /// The token in `folder` (default: `folder()`), made and stored if there is none yet or the
    /// file cannot be trusted (readable by others, not ours, not a token).
    public static func load(folder: String? = nil) throws(Problem) -> Loaded {
        guard let folder = folder ?? Self.folder() else {
            throw Problem(description: "control token: neither XDG_CONFIG_HOME nor HOME is set")
        }
        try makeFolder(folder)
        let path = folder + "/" + fileName
        // Two renderers starting at once: the one that loses the race to create reads the other's.
        for _ in 0..<3 {
            switch read(path) {
            case .token(let token):
                return Loaded(token: token, note: nil)
            case .missing:
                let token = make()
                if try store(token, at: path, replacing: false) { return Loaded(token: token, note: "control token made in \(path)") }
            case .untrusted(let why):
                let token = make()
                _ = try store(token, at: path, replacing: true)
                return Loaded(token: token, note: "control token in \(path) \(why): a new one was made")
            }
        }
        throw Problem(description: "control token: \(path) keeps changing")
    }

    /// Whether `given` is `token`, in time that does not depend on where they differ.
    public static func matches(_ given: some StringProtocol, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        guard a.count == b.count, !b.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A new token in `folder` (default: `folder()`), in place of the one there: the old one
    /// stops working in every running server at its next request.
    public static func rotate(folder: String? = nil) throws(Problem) -> String {
        guard let folder = folder ?? Self.folder() else {
            throw Problem(description: "control token: neither XDG_CONFIG_HOME nor HOME is set")
        }
        try makeFolder(folder)
        let token = make()
        _ = try store(token, at: folder + "/" + fileName, replacing: true)
        return token
    }

    /// 256 bits from the system's generator (getrandom(2) on Linux).
    static func make() -> String { random(hexDigits: hexDigits) }

    /// `hexDigits` (a multiple of 16) random lower-case hex digits from the system's generator.
    static func random(hexDigits: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<(hexDigits / 16) {
            let word = generator.next() as UInt64
            let digits = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return text
    }

    static func isWellFormed(_ text: some StringProtocol) -> Bool {
        text.utf8.count == hexDigits && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private enum Found {
        case token(String)
        case missing
        case untrusted(String)
    }

    private static func read(_ path: String) -> Found {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .untrusted("cannot be read (\(errnoText()))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .untrusted("is not a regular file") }
        guard info.st_uid == getuid() else { return .untrusted("belongs to another user") }
        guard info.st_mode & 0o077 == 0 else { return .untrusted("could be read by others") }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return .untrusted("cannot be read (\(errnoText()))") }
        let text = String(decoding: bytes[0..<count], as: UTF8.self).trimmingWhitespace(andNewlines: true)
        return isWellFormed(text) ? .token(text) : .untrusted("holds no token")
    }

    /// Writes `token` to a new file beside `path`, then links it in (false: another process
    /// made `path` first) or renames it over `path` (`replacing`).
    private static func store(_ token: String, at path: String, replacing: Bool) throws(Problem) -> Bool {
        let temporary = path + ".\(getpid()).new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Problem(description: "control token: cannot write \(temporary): \(errnoText())") }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        defer { unlink(temporary) }
        guard written == bytes.count, synced else {
            throw Problem(description: "control token: cannot write \(temporary): \(errnoText())")
        }
        if replacing {
            guard rename(temporary, path) == 0 else {
                throw Problem(description: "control token: cannot replace \(path): \(errnoText())")
            }
            return true
        }
        if link(temporary, path) == 0 { return true }
        if errno == EEXIST { return false }
        throw Problem(description: "control token: cannot create \(path): \(errnoText())")
    }

    /// The folder (and its parent, if missing) with mode 0700; ours, and closed to others.
    private static func makeFolder(_ folder: String) throws(Problem) {
        if let slash = folder.utf8.lastIndex(of: UInt8(ascii: "/")), slash != folder.utf8.startIndex {
            let parent = String(folder[..<slash])
            if access(parent, F_OK) != 0 { mkdir(parent, 0o700) }
        }
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw Problem(description: "control token: cannot make \(folder): \(errnoText())")
        }
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Problem(description: "control token: \(folder) is not a folder")
        }
        guard info.st_uid == getuid() else { throw Problem(description: "control token: \(folder) belongs to another user") }
        if info.st_mode & 0o077 != 0 { chmod(folder, 0o700) }
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
