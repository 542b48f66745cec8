// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CommentBarCore
import FoundationEssentials
import Glibc
import Synchronization

/// Downloaded pictures kept on disk between runs (`$XDG_CACHE_HOME/commentbar/images`, else
/// `~/.cache/commentbar/images`), so an emote is fetched once, not once per OBS start. It
/// honours `Cache-Control` (`no-store` is not kept; `max-age` sets how long an entry is fresh,
/// a day when the server says nothing).
///
/// Bounded by what the disk really holds: each entry is one file (`<SHA-256 of the URL>.entry`:
/// a small header naming its URL and expiry, then the bytes), counted by the blocks it
/// occupies plus a per-entry allowance for its inode and directory slot; at most `maxBytes` of
/// that and `maxEntries` entries, the least recently used going first.
///
/// Several renderers (one per OBS source) share the directory: writes go to a temporary file
/// renamed into place (a reader sees a whole entry or none), writers take an `flock` on
/// `.lock` in turn, and a reader tolerates an entry that vanishes or is not whole (a miss). Each
/// process keeps the index in memory; the directory is listed again only when another process
/// changed it (its modification time moved) — never on every write of its own.
/// Nothing here is required: a cache that cannot be written is simply not used.
package final class HTTPDiskCache: Sendable {
    package static let maxBytes = 128 << 20
    package static let maxEntries = 8192
    /// What an entry costs beyond its data blocks: its inode and its name in the directory.
    package static let entryOverhead = 512
    static let defaultFreshness = 86_400.0
    static let suffix = ".entry"
    /// An entry file starts with this, then the expiry (Double bits, little-endian), the URL's
    /// length (UInt32, little-endian) and the URL; the body follows.
    static let magic: [UInt8] = Array("CBC1".utf8)

    let directory: String
    private let limit: Int
    private let entryLimit: Int
    private let lockFile: Int32

    private struct Entry {
        var bytes: Int
        var used: Double
    }

    private struct Index {
        var entries: [String: Entry] = [:]
        var total = 0
        /// The directory's modification time after this process's last look or change.
        var seen: [Int]?
        var scans = 0
        var temporaryCounter = 0
    }

    private let index = Mutex(Index())

    package init?(directory: String? = HTTPDiskCache.defaultDirectory(), maxBytes: Int = HTTPDiskCache.maxBytes,
                  maxEntries: Int = HTTPDiskCache.maxEntries) {
        guard let directory, !directory.isEmpty else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        let lockFile = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFile >= 0 else { return nil }
        self.directory = directory
        self.lockFile = lockFile
        limit = maxBytes
        entryLimit = maxEntries
    }

    deinit { close(lockFile) }

    package static func defaultDirectory() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/commentbar/images" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/commentbar/images" }
        return nil
    }

    /// What the entries occupy, as counted (for tests and benchmarks).
    package var countedBytes: Int { index.withLock { $0.total } }
    /// How many times the directory was listed (for tests: not once per write).
    package var scans: Int { index.withLock { $0.scans } }

    /// The cached bytes of `url` while they are fresh. No lock: an entry is renamed into place
    /// whole, and one that vanishes or is cut short is a miss.
    package func get(_ url: String, now: Double = WallClock.now()) -> [UInt8]? {
        let name = Self.name(for: url)
        let path = directory + "/" + name
        guard let data = FileManager.default.contents(atPath: path),
              let (entryURL, expires, body) = Self.decode(Array(data)), entryURL == url, now < expires else { return nil }
        utime(path, nil)  // used now: the last to be evicted (also for the other processes)
        index.withLock { index in index.entries[name]?.used = now }
        return body
    }

    /// Keeps `body` for `url` as `cacheControl` allows.
    package func put(_ url: String, body: [UInt8], cacheControl: String?, now: Double = WallClock.now()) {
        guard let freshness = Self.freshness(cacheControl), freshness > 0, body.count <= limit / 8 else { return }
        let name = Self.name(for: url)
        let entry = Self.encode(url: url, expires: now + freshness, body: body)
        index.withLock { index in
            guard flock(lockFile, LOCK_EX) == 0 else { return }
            defer { flock(lockFile, LOCK_UN) }
            if index.seen == nil || directoryTime() != index.seen { scan(&index) }
            index.temporaryCounter += 1
            let temporary = "\(directory)/.\(name).\(getpid()).\(index.temporaryCounter).tmp"
            guard write(entry, to: temporary) else {
                unlink(temporary)
                return
            }
            let bytes = Self.usage(of: temporary)
            guard rename(temporary, directory + "/" + name) == 0 else {
                unlink(temporary)
                return
            }
            if let old = index.entries.updateValue(Entry(bytes: bytes, used: now), forKey: name) { index.total -= old.bytes }
            index.total += bytes
            evict(&index, keeping: name)
            index.seen = directoryTime()
        }
    }

    /// Seconds an answer stays fresh; nil when it must not be stored.
    static func freshness(_ cacheControl: String?) -> Double? {
        guard let cacheControl else { return defaultFreshness }
        let directives = cacheControl.lowercased().split(separator: ",").map { part in
            String(part.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        if directives.contains("no-store") || directives.contains("private") { return nil }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }) {
            return Double(maxAge.dropFirst("max-age=".count)).map { min($0, 365 * 86_400) } ?? defaultFreshness
        }
        return directives.contains("no-cache") ? nil : defaultFreshness
    }

    /// An entry's file name: the SHA-256 of its URL (no two URLs share a file by accident or design).
    static func name(for url: String) -> String {
        GLibSHA256.hex(Array(url.utf8)) + suffix
    }

    static func encode(url: String, expires: Double, body: [UInt8]) -> [UInt8] {
        let urlBytes = Array(url.utf8)
        var out = magic
        out.reserveCapacity(magic.count + 12 + urlBytes.count + body.count)
        withUnsafeBytes(of: expires.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(urlBytes.count).littleEndian) { out.append(contentsOf: $0) }
        return out + urlBytes + body
    }

    static func decode(_ data: [UInt8]) -> (url: String, expires: Double, body: [UInt8])? {
        let headerEnd = magic.count + 12
        guard data.count >= headerEnd, Array(data[0..<magic.count]) == magic else { return nil }
        let bits = data[magic.count..<(magic.count + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let length = Int(data[(magic.count + 8)..<headerEnd].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard length <= 4096, data.count >= headerEnd + length else { return nil }
        let url = String(decoding: data[headerEnd..<(headerEnd + length)], as: UTF8.self)
        return (url, Double(bitPattern: bits), Array(data[(headerEnd + length)...]))
    }

    /// What a file occupies on disk: its blocks (at least its size rounded up to 4 KiB, as most
    /// file systems allocate) and the per-entry allowance.
    private static func usage(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return entryOverhead + 4096 }
        let blocks = Int(info.st_blocks) * 512
        let rounded = (Int(info.st_size) + 4095) / 4096 * 4096
        return max(blocks, rounded) + entryOverhead
    }

    /// The directory's modification time (seconds, nanoseconds, and its inode's change count
    /// stand-in: its size), which every create, rename and unlink moves.
    private func directoryTime() -> [Int]? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return nil }
        return [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ctim.tv_nsec), Int(info.st_size)]
    }

    private func write(_ bytes: [UInt8], to path: String) -> Bool {
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { return false }
        defer { close(file) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Lists the directory once: the index becomes what is really there (other processes'
    /// entries included); leftovers (temporary files of a crashed writer, the old two-file
    /// format) are removed.
    private func scan(_ index: inout Index) {
        index.scans += 1
        index.entries.removeAll(keepingCapacity: true)
        index.total = 0
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let now = WallClock.now()
        for name in names where name != ".lock" {
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            guard name.hasSuffix(Self.suffix), !name.hasPrefix(".") else {
                // A temporary file is another writer's for a moment; an old one, or anything else, is debris.
                if !name.hasSuffix(".tmp") || now - modified > 60 { unlink(path) }
                continue
            }
            let bytes = max(Int(info.st_blocks) * 512, (Int(info.st_size) + 4095) / 4096 * 4096) + Self.entryOverhead
            index.entries[name] = Entry(bytes: bytes, used: modified)
            index.total += bytes
        }
    }

    /// When a cap is passed, removes the least recently used entries down to 7/8 of both caps
    /// (`keeping` the one just written), so the sort is paid once per many writes.
    private func evict(_ index: inout Index, keeping kept: String) {
        guard index.total > limit || index.entries.count > entryLimit else { return }
        let bytesTarget = limit - limit / 8, entriesTarget = entryLimit - entryLimit / 8
        let oldestFirst = index.entries.filter { $0.key != kept }.sorted { $0.value.used < $1.value.used }
        for (name, entry) in oldestFirst where index.total > bytesTarget || index.entries.count > entriesTarget {
            unlink(directory + "/" + name)
            index.entries[name] = nil
            index.total -= entry.bytes
        }
    }
}
