// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CommentBarCore
import CommentBarMemory
import Glibc
import Logging

/// `commentbar bench-memory`: what the viewer memory costs, on a real file in a folder of the
/// caller's: comments written a second through the writer thread, the feed path's look-up per
/// comment (viewer cached, and read from the file), search over a large log, bytes per 100,000
/// comments. Figures for docs/benchmarks.md, never a pass/fail.
public enum MemoryBenchmark {
    public struct Results: Sendable, Encodable {
        /// Comments a second the writer committed (wall clock), the feed path producing as fast as it could.
        public var inserts_per_second: Double
        /// The same count over the process's CPU time (producer and writer): what a machine with
        /// a core free gives; the wall clock also counts other programs on a busy machine.
        public var inserts_per_cpu_second: Double
        public var lookup_cached_p50_us: Double
        public var lookup_cached_mean_us: Double
        public var lookup_cached_p99_us: Double
        /// A viewer not in memory yet: one indexed read of the file.
        public var lookup_uncached_p50_us: Double
        public var lookup_uncached_mean_us: Double
        public var lookup_uncached_p99_us: Double
        public var logged_comments: Int
        public var searches: [Search]
        public var bytes_per_100k_comments: Double
    }

    public struct Search: Sendable, Encodable {
        public var word: String
        /// `trigram` (3+ characters) or `scan` (1–2 characters).
        public var path: String
        /// Nil: every match (as `log search` without --limit).
        public var limit: Int?
        public var matches: Int
        public var p50_ms: Double
        public var p99_ms: Double
    }

    /// The words searched: rare ones planted in 1 of 2,000 messages, and common ones.
    static let plantedJapanese = "北海道"
    static let plantedEnglish = "saxophone"
    static let japanesePhrases = ["こんにちは", "初見です", "ラーメン食べたい", "神回", "草", "すごい", "かわいい", "がんばって",
                                  "おつかれさま", "今日も配信ありがとう", "ゲーム上手い", "それな", "なるほど", "8888", "きたー"]
    static let englishPhrases = ["hello", "gg", "nice play", "pizza time", "lol", "let's go", "good luck",
                                 "what game is this", "first time here", "hype", "clip it", "no way"]

    /// A deterministic chat: phrases picked by a linear congruential generator.
    struct Chat {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func text(_ number: Int) -> String {
            let english = next() % 3 == 0
            let phrases = english ? englishPhrases : japanesePhrases
            var parts = (0..<(1 + Int(next() % 3))).map { _ in phrases[Int(next() % UInt64(phrases.count))] }
            if number % 2000 == 7 { parts.append(english ? plantedEnglish : plantedJapanese) }
            if number % 2000 == 1007 { parts.append(english ? plantedJapanese : plantedEnglish) }
            return parts.joined(separator: english ? " " : "")
        }
    }

    public static func run(folder: String, comments: Int, viewers: Int = 20_000, log: Logger,
                           progress: (String) -> Void) throws -> Results {
        let path = folder + "/bench-memory.sqlite3"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let channel = ChannelRef(platform: "bench", channel: "channel")
        var chat = Chat()
        func line(_ number: Int) -> ChatLine {
            let viewer = "viewer\(number % viewers)"
            // Twitch's message ids are UUIDs: the log's unique index holds them.
            let id = "6b3f1c2e-1a2b-4c5d-9e8f-" + Timestamps.pad(number, 12)
            return ChatLine(id: id, user: viewer.capitalized, login: viewer, text: chat.text(number))
        }
        let options = MemoryOptions()
        let clock = ContinuousClock()

        // 1. Inserts through the writer thread, the producer kept within the queue's bound.
        let written = min(comments, 200_000)
        progress("writing \(written) comments through the writer thread")
        var memory = ChatMemory(path: path, log: log)
        var session = memory.openSession(channel, now: WallClock.now())
        let began = clock.now
        let cpuBegan = processCPUSeconds()
        for number in 0..<written {
            if number % 1000 == 0 { while memory.backlog > 10_000 { usleep(500) } }
            _ = memory.receive(line(number), session: session, channel: channel, options: options, now: WallClock.now())
        }
        memory.flush(timeout: .seconds(600))
        let insertSeconds = seconds(clock.now - began)
        let insertCPUSeconds = processCPUSeconds() - cpuBegan

        // 2. The feed path's look-up: viewers in memory, then (a new process) read from the file.
        progress("timing the per-comment look-up")
        func time(_ count: Int, _ numbered: (Int) -> Int) -> [Double] {
            var samples: [Double] = []
            samples.reserveCapacity(count)
            for index in 0..<count {
                if index % 1000 == 0 { while memory.backlog > 5_000 { usleep(500) } }
                let next = line(numbered(index))
                let start = clock.now
                _ = memory.receive(next, session: session, channel: channel, options: options, now: WallClock.now())
                samples.append(seconds(clock.now - start) * 1e6)
            }
            return samples
        }
        let cached = time(50_000) { written + $0 }
        memory.close()
        memory = ChatMemory(path: path, log: log)
        session = memory.openSession(channel, now: WallClock.now())
        memory.flush()
        let uncached = time(min(viewers, 20_000)) { written + 50_000 + $0 }
        memory.close()

        // 3. The rest of the log, written straight into the store (the writer's rate is measured above).
        let store = try ChatStore(path: path)
        var total = Int(try store.connection.scalarInt("SELECT count(*) FROM messages") ?? 0)
        if total < comments { progress("filling the log to \(comments) comments") }
        let open = try store.openSession(channel, at: WallClock.now())
        while total < comments {
            let batch = min(10_000, comments - total)
            let start = total + 100_000
            try store.connection.transaction { () throws(SQLiteError) in
                for number in start..<(start + batch) {
                    let record = MessageRecord(session: 0, line: line(number), time: WallClock.now(), hiddenByMemory: false,
                                               firstTime: false, nicknameFromChat: nil)
                    try store.insert(record, in: open, verdict: .shown)
                }
            }
            total += batch
        }
        _ = try store.connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")

        // 4. Search, each word 50 times.
        progress("searching \(total) comments")
        let reader = try ChatReader(path: path)
        var searches: [Search] = []
        for (word, limit) in [(plantedJapanese, 100), (plantedEnglish, 100), (plantedJapanese, nil), (plantedEnglish, nil),
                              ("ラーメン", 100), ("pizza", 100), ("神回", 100), ("神回", nil), ("初見", 100)] as [(String, Int?)] {
            var samples: [Double] = []
            var matches = 0
            for _ in 0..<50 {
                let start = clock.now
                matches = try reader.search(ChatQuery(text: word, limit: limit)).count
                samples.append(seconds(clock.now - start) * 1000)
            }
            searches.append(Search(word: word, path: word.unicodeScalars.count >= 3 ? "trigram" : "scan", limit: limit,
                                   matches: matches, p50_ms: percentile(samples, 0.5), p99_ms: percentile(samples, 0.99)))
        }
        var info = stat()
        let bytes = stat(path, &info) == 0 ? Double(info.st_size) : 0
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        return Results(inserts_per_second: Double(written) / insertSeconds,
                       inserts_per_cpu_second: Double(written) / max(insertCPUSeconds, 1e-9),
                       lookup_cached_p50_us: percentile(cached, 0.5), lookup_cached_mean_us: mean(cached),
                       lookup_cached_p99_us: percentile(cached, 0.99),
                       lookup_uncached_p50_us: percentile(uncached, 0.5), lookup_uncached_mean_us: mean(uncached),
                       lookup_uncached_p99_us: percentile(uncached, 0.99),
                       logged_comments: total, searches: searches, bytes_per_100k_comments: bytes / Double(total) * 100_000)
    }

    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
