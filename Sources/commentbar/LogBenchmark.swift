// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarBenchmarks
import FoundationEssentials
import Glibc
import Logging

/// `commentbar bench-memory`: the viewer memory's costs (issue 29's targets): inserts a second,
/// the per-comment look-up, search over a large log, bytes per 100,000 comments.
struct BenchMemory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-memory",
        abstract: "Measure the chat log: inserts/s, per-comment look-up (µs), search p99 (ms), size per 100,000 comments.")

    @Option(help: "Comments in the log searched.") var comments = 1_000_000
    @Option(help: ArgumentHelp("Where the benchmark's file is made (and removed).", valueName: "folder")) var folder = "/tmp"
    @Flag(help: "Print one JSON object.") var json = false

    func validate() throws {
        guard (10_000...20_000_000).contains(comments) else { throw ValidationError("--comments must be 10000...20000000") }
    }

    func run() throws {
        var log = Logger(label: "bench-memory")
        log.logLevel = .warning
        let results = try MemoryBenchmark.run(folder: folder, comments: comments, log: log) { step in
            if !json { _ = "bench-memory: \(step)\n".withCString { write(2, $0, strlen($0)) } }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
            return
        }
        func number(_ value: Double, _ digits: Int = 1) -> String {
            let scale = pow(10, Double(digits))
            return String((value * scale).rounded() / scale)
        }
        print("inserts sustained: \(Int(results.inserts_per_second)) comments/s by the clock, "
              + "\(Int(results.inserts_per_cpu_second)) per CPU second (target ≥ 20,000)")
        func lookup(_ p50: Double, _ mean: Double, _ p99: Double) -> String {
            "\(number(p50, 2)) µs median, \(number(mean, 2)) µs mean, \(number(p99, 2)) µs p99"
        }
        print("look-up per comment: \(lookup(results.lookup_cached_p50_us, results.lookup_cached_mean_us, results.lookup_cached_p99_us)) "
              + "(viewer in memory); \(lookup(results.lookup_uncached_p50_us, results.lookup_uncached_mean_us, results.lookup_uncached_p99_us)) "
              + "(read from the file) (target ≤ 20 µs)")
        for search in results.searches {
            let limit = search.limit.map { "limit \($0)" } ?? "every match"
            print("search \(search.word) (\(search.path), \(limit), \(search.matches) found) over \(results.logged_comments) comments: "
                  + "p50 \(number(search.p50_ms, 2)) ms, p99 \(number(search.p99_ms, 2)) ms (target ≤ 50 ms)")
        }
        print("size: \(number(results.bytes_per_100k_comments / 1_048_576, 1)) MiB per 100,000 comments")
    }
}
