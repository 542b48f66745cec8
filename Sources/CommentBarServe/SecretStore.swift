// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import FoundationEssentials
import Glibc

/// The id naming a source's secrets file: 32 lower-case hex digits the shim made and keeps in
/// the source's settings (`secrets_id`; OBS 29.0 has no source UUID). Anything else is refused,
/// so no id can name a file elsewhere.
public struct SecretID: Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init?(_ text: String) {
        guard text.utf8.count == 32,
              text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        description = text
    }
}

/// A source's secrets (the Mirrativ session) on disk, kept by the renderer, never in OBS's saved
/// settings (issue 28): one file per source, `<folder>/<id>`, holding a JSON object of setting
/// key → value. The folder (by default `$XDG_CONFIG_HOME/comment-bar/secrets`) is made 0700, each
/// file 0600, written to a new file beside it, flushed and renamed over it, so a crash leaves the
/// old secrets or the new, never half. A symbolic link is never followed: the folder is opened
/// with `O_NOFOLLOW` and each file relative to it, `O_NOFOLLOW` too (a rename replaces a link, it
/// never writes through it). A file that is not the user's, that others could read, or that is
/// larger than `sizeLimit` is refused. A problem names a path, never a value.
public struct SecretStore: Sendable {
    public static let sizeLimit = 64 * 1024
    public let folder: String

    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init(folder: String) {
        self.folder = folder
    }

    /// `secrets` in the user's comment-bar config folder (where the control token is too); nil
    /// when neither XDG_CONFIG_HOME nor HOME is set.
    public static func standard() -> SecretStore? {
        ControlToken.folder().map { SecretStore(folder: $0 + "/secrets") }
    }

    public func path(of id: SecretID) -> String {
        folder + "/" + id.description
    }

    /// The secrets saved under `id`; empty when there is no file.
    public func load(id: SecretID) throws(Problem) -> [String: String] {
        guard let directory = try openFolder(create: false) else { return [:] }
        defer { close(directory) }
        let fd = openat(directory, id.description, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return [:] }
            throw problem(id, errno == ELOOP ? "is a symbolic link: not followed" : "cannot be read: \(errnoText())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw problem(id, "is not a regular file") }
        guard info.st_uid == getuid() else { throw problem(id, "belongs to another user: not used") }
        guard info.st_mode & 0o077 == 0 else { throw problem(id, "could be read by others: not used") }
        var bytes = [UInt8](repeating: 0, count: Self.sizeLimit + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw problem(id, "cannot be read: \(errnoText())") }
            if n == 0 { break }
            count += n
        }
        guard count <= Self.sizeLimit else { throw problem(id, "is larger than \(Self.sizeLimit / 1024) KiB: not used") }
        guard let secrets = try? JSONDecoder().decode([String: String].self, from: Data(bytes[0..<count])) else {
            throw problem(id, "holds no secrets this version can read")
        }
        return secrets
    }

    /// Saves `secrets` under `id`, replacing what was there.
    public func save(_ secrets: [String: String], id: SecretID) throws(Problem) {
        guard let data = try? JSONEncoder().encode(secrets), data.count <= Self.sizeLimit else {
            throw problem(id, "cannot be written: the secrets are larger than \(Self.sizeLimit / 1024) KiB")
        }
        guard let directory = try openFolder(create: true) else { throw problem(id, "has no folder") }
        defer { close(directory) }
        // Beside it, named for this process: two renderers (a duplicated source) never share one.
        let temporary = ".\(id).\(getpid()).new"
        unlinkat(directory, temporary, 0)
        let fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw problem(id, "cannot be written: \(errnoText())") }
        let complete = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        // fchmod: the mode asked for at creation is narrowed by the umask, never widened; be sure.
        let flushed = complete && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        guard flushed, renameat(directory, temporary, directory, id.description) == 0 else {
            let why = errnoText()
            unlinkat(directory, temporary, 0)
            throw problem(id, "cannot be written: \(why)")
        }
        fsync(directory)  // the rename itself survives a crash
    }

    /// Deletes the file of `id`; no file is no failure.
    public func delete(id: SecretID) throws(Problem) {
        guard let directory = try openFolder(create: false) else { return }
        defer { close(directory) }
        guard unlinkat(directory, id.description, 0) == 0 || errno == ENOENT else {
            throw problem(id, "cannot be deleted: \(errnoText())")
        }
    }

    /// The folder, opened without following a symbolic link, the user's and closed to others;
    /// made (0700, its missing parents too) when `create`; nil when missing and not `create`.
    private func openFolder(create: Bool) throws(Problem) -> Int32? {
        if create {
            var built = folder.hasPrefix("/") ? "" : "."
            for part in folder.split(separator: "/") {
                built += "/" + part
                if mkdir(built, 0o700) != 0 && errno != EEXIST {
                    throw Problem(description: "secrets: cannot make \(built): \(errnoText())")
                }
            }
        }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT && !create { return nil }
            let why = errno == ELOOP || errno == ENOTDIR ? "is not a folder (a symbolic link is not followed)"
                : "cannot be opened: \(errnoText())"
            throw Problem(description: "secrets: \(folder) \(why)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == getuid() else {
            close(fd)
            throw Problem(description: "secrets: \(folder) belongs to another user")
        }
        if info.st_mode & 0o077 != 0 && fchmod(fd, 0o700) != 0 {
            close(fd)
            throw Problem(description: "secrets: \(folder) cannot be made private: \(errnoText())")
        }
        return fd
    }

    private func problem(_ id: SecretID, _ what: String) -> Problem {
        Problem(description: "secrets: \(path(of: id)) \(what)")
    }

    private func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
