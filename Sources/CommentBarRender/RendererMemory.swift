// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import Glibc

/// The renderer process's memory policy: its heap, and the code only start-up ran.
///
/// glibc gives each thread its own malloc arena (up to eight per core), and an arena keeps what
/// was freed in it: the frame loop, which runs on whichever of Swift's threads is free, spread its
/// glyphs and rows over several arenas that each held megabytes freed long ago. Two arenas are
/// enough for one bar's few threads.
///
/// A page of code stays mapped once run, and the kernel maps the 15 cached neighbours of every
/// page it faults in (fault-around): start-up (argument parsing, settings, fontconfig, the first
/// connection) left 12 MiB of the binary's text and libraries' code resident that a running bar
/// never executes again (`Tests/bench/renderer_rss.py --binary-pages`). Those are clean page-cache
/// pages: dropping them from the process (MADV_DONTNEED) loses nothing, and what the bar still runs
/// faults back in, packed together by the link order (linker/commentbar.order).
public enum RendererMemory {
    /// Seconds between start-up's code being let go: once settings, fonts, a local feed's connection
    /// and the first frames have run (2 s), then a minute in, after a slow first connection (its
    /// TLS, a first poll). Each costs about a thousand minor faults for the code still run.
    static let releaseAfterSeconds: [UInt64] = [2, 58]

    /// Called once, first thing in `serve`, before the feeds' and the frame loop's threads start.
    public static func configureProcess() {
        _ = mallopt(M_ARENA_MAX, 2)
        Task.detached(priority: .background) {
            for seconds in releaseAfterSeconds {
                try? await Task.sleep(nanoseconds: seconds * 1_000_000_000)
                releaseStartUpCode()
            }
        }
    }

    /// Drops this process's pages of read-only file mappings that hold nothing of its own: every
    /// mapping of its executable and the code (r-x) of its shared libraries, each only when it has
    /// no anonymous (copied-on-write) page, which dropping would lose. Neither is ever unmapped
    /// while the renderer runs, so no other mapping can have taken a range between reading
    /// /proc/self/smaps and the madvise. (Font files are mapped and unmapped as the font map is
    /// made anew, on the frame loop's thread: they are left alone.) Returns how many it dropped.
    @discardableResult
    static func releaseStartUpCode() -> Int {
        guard let executable = executablePath(), let smaps = fopen("/proc/self/smaps", "r") else { return 0 }
        defer { fclose(smaps) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var candidate: Mapping?
        var released = 0
        while getline(&buffer, &capacity, smaps) > 0, let buffer {
            let line = String(cString: buffer)
            if let mapping = Mapping(smapsHeader: line) {
                candidate = mapping.isCodeOrExecutable(executable: executable) ? mapping : nil
            } else if let mapping = candidate, line.hasPrefix("Anonymous:") {
                candidate = nil
                guard line.split(separator: " ").dropFirst().first == "0",
                      let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
                if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += 1 }
            }
        }
        return released
    }

    private static func executablePath() -> String? {
        var path = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = path.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { readlink("/proc/self/exe", $0, buffer.count - 1) } ?? -1
        }
        return length > 0 ? String(decoding: path[0..<length], as: UTF8.self) : nil
    }

    /// One mapping's first line in /proc/PID/smaps: `start-end perms offset dev inode [path]`.
    struct Mapping {
        let start: UInt
        let end: UInt
        let permissions: String
        let inode: String
        let path: String

        init?(smapsHeader line: String) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, !fields[0].hasSuffix(":") else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                  start < end, fields[1].count == 4 else { return nil }
            self.start = start
            self.end = end
            permissions = String(fields[1])
            inode = String(fields[4])
            path = fields.count > 5 ? String(fields[5].drop(while: { $0 == " " }).prefix(while: { $0 != "\n" })) : ""
        }

        /// A read-only mapping of a file: the executable (any of its read-only parts) or a library's code.
        func isCodeOrExecutable(executable: String) -> Bool {
            guard inode != "0", path.hasPrefix("/"), !permissions.contains("w") else { return false }
            return path == executable || permissions == "r-xp"
        }
    }
}
