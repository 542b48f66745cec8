// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc
import Synchronization

/// Downloaded pictures kept on disk between runs (`$XDG_CACHE_HOME/commentbar/images`, else
/// `~/.cache/commentbar/images`), so an emote is fetched once, not once per OBS start. It
/// honours `Cache-Control` (`no-store` is not kept; `max-age` sets how long an entry is fresh,
/// a day when the server says nothing), and holds at most `maxBytes`: the least recently used
/// files go first. Entries are the bytes and a small JSON file naming their URL, written to a
/// temporary name and renamed, so a crash leaves no half entry. Nothing here is required: a
/// cache that cannot be written is simply not used.
package final class HTTPDiskCache: Sendable {
    package static let maxBytes = 128 << 20
    static let defaultFreshness = 86_400.0

    let directory: String
    private let limit: Int
    private let lock = Mutex(())

    struct Meta: Codable {
        var url: String
        var expires: Double
    }

    package init?(directory: String? = HTTPDiskCache.defaultDirectory(), maxBytes: Int = HTTPDiskCache.maxBytes) {
        guard let directory, !directory.isEmpty else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        self.directory = directory
        limit = maxBytes
    }

    package static func defaultDirectory() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/commentbar/images" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/commentbar/images" }
        return nil
    }

    /// The cached bytes of `url` while they are fresh.
    package func get(_ url: String, now: Double = Date().timeIntervalSince1970) -> [UInt8]? {
        lock.withLock { _ in
            let base = path(for: url)
            guard let metaData = FileManager.default.contents(atPath: base + ".json"),
                  let meta = try? JSONDecoder().decode(Meta.self, from: metaData), meta.url == url, now < meta.expires,
                  let body = FileManager.default.contents(atPath: base + ".bin") else { return nil }
            utime(base + ".bin", nil)  // used now: the last to be evicted
            return Array(body)
        }
    }

    /// Keeps `body` for `url` as `cacheControl` allows.
    package func put(_ url: String, body: [UInt8], cacheControl: String?, now: Double = Date().timeIntervalSince1970) {
        guard let freshness = Self.freshness(cacheControl), freshness > 0, body.count <= limit / 8 else { return }
        lock.withLock { _ in
            let base = path(for: url)
            guard let meta = try? JSONEncoder().encode(Meta(url: url, expires: now + freshness)),
                  write(Data(body), to: base + ".bin"), write(meta, to: base + ".json") else { return }
            evict()
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

    /// A file name from the URL: FNV-1a, 64 bits (the URL inside the entry settles a clash).
    private func path(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func write(_ data: Data, to path: String) -> Bool {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return false }
        return rename(temporary, path) == 0
    }

    /// Removes the least recently used entries until the cache is within its cap.
    private func evict() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        var entries: [(base: String, bytes: Int, used: Double)] = []
        var total = 0
        for name in names where name.hasSuffix(".bin") {
            let base = directory + "/" + String(name.dropLast(4))
            var info = stat()
            guard stat(base + ".bin", &info) == 0 else { continue }
            let bytes = Int(info.st_size)
            entries.append((base, bytes, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            total += bytes
        }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > limit {
            unlink(entry.base + ".bin")
            unlink(entry.base + ".json")
            total -= entry.bytes
        }
    }
}
