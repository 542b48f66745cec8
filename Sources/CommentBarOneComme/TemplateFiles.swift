// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The user's templates: `$XDG_DATA_HOME/comment-bar/templates/<name>/…` (else
/// `~/.local/share/comment-bar/templates`), read only below that folder. The path's segments are
/// checked first (`TemplatePath`); then each folder is opened relative to the one before with
/// `O_NOFOLLOW` and the file too, so a link anywhere inside (to `/etc`, to `~/.ssh`) is refused,
/// never followed; only a regular file of at most `maxFileBytes` is read. Blocking: the server
/// calls it on its thread pool, never on its event loop.
struct TemplateFiles: Sendable {
    let root: String

    static let maxFileBytes = 16 << 20

    enum Outcome: Sendable, Equatable {
        case file([UInt8])
        case notFound
        /// A link, a device, a folder where a file was asked for, or too large.
        case refused(String)
    }

    /// The standard folder, or nil when neither XDG_DATA_HOME nor HOME is set.
    static func standardRoot() -> String? {
        if let data = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), data.hasPrefix("/") {
            return data + "/comment-bar/templates"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return nil }
        return home + "/.local/share/comment-bar/templates"
    }

    /// The file at `segments` (checked by `TemplatePath`) below the root.
    func read(_ segments: [String]) -> Outcome {
        guard let last = segments.last else { return .notFound }
        // The root itself is the user's to place (it may be a link to another disk); nothing below it.
        var folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return .notFound }
        defer { close(folder) }
        for segment in segments.dropLast() {
            let next = openat(folder, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return Self.failure(errno) }
            close(folder)
            folder = next
        }
        let fd = openat(folder, last, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return Self.failure(errno) }
        defer { close(fd) }
        switch FileRead.whole(fd, limit: Self.maxFileBytes) {
        case .success(let bytes): return .file(bytes)
        case .failure(.notAFile): return .refused("not a regular file")
        case .failure(.tooLarge): return .refused("larger than \(Self.maxFileBytes >> 20) MiB")
        case .failure(.unreadable): return .notFound
        }
    }

    /// A failed open: a link is refused (said so), anything else is not there.
    private static func failure(_ code: Int32) -> Outcome {
        code == ELOOP || code == ENOTDIR ? .refused("a link or not a folder: links are not followed") : .notFound
    }

    /// The template folders present (names only, sorted), for the index page.
    func names() -> [String] {
        guard let directory = opendir(root) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory), names.count < 500 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entry.pointee.d_type == UInt8(DT_DIR), TemplatePath.allowed(name) { names.append(name) }
        }
        return names.sorted()
    }
}
