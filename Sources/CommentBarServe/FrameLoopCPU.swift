// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// Where the frame loop's CPU goes, with `COMMENTBAR_CPU_TRACE=1`, for benchmarks (issue 31's
/// renderer CPU at 10 comments/s): the thread CPU time of releasing due comments, of laying out
/// new rows and of writing frames, beside the whole process's, logged as running totals about
/// once a second (`Tests/bench/flow_cpu.py` takes the difference over its window). Off, it costs
/// nothing: nothing is timed.
struct FrameLoopCPU {
    enum Part { case release, layout, frame }

    /// Off: nothing is timed and nothing logged.
    let isOn: Bool
    private(set) var releaseSeconds = 0.0
    private(set) var layoutSeconds = 0.0
    private(set) var frameSeconds = 0.0
    private(set) var rowsLaidOut = 0
    private(set) var framesMade = 0
    private var loggedAt = -Double.infinity

    init(isOn: Bool) {
        self.isOn = isOn
    }

    /// Runs `body`, adding the CPU time this thread spent in it to `part`.
    mutating func measure<T>(_ part: Part, _ body: () -> T) -> T {
        guard isOn else { return body() }
        let started = Self.seconds(CLOCK_THREAD_CPUTIME_ID)
        let result = body()
        let spent = Self.seconds(CLOCK_THREAD_CPUTIME_ID) - started
        switch part {
        case .release: releaseSeconds += spent
        case .layout: layoutSeconds += spent
        case .frame: frameSeconds += spent
        }
        return result
    }

    mutating func laidOut(rows: Int) { rowsLaidOut += rows }
    mutating func madeFrame() { framesMade += 1 }

    /// The line to log, when a second has passed since the last one (nil: not yet).
    mutating func lineIfDue() -> String? {
        guard isOn else { return nil }
        let now = Self.seconds(CLOCK_MONOTONIC)
        guard now - loggedAt >= 1 else { return nil }
        loggedAt = now
        return "cpu: process \(Self.milliseconds(Self.seconds(CLOCK_PROCESS_CPUTIME_ID))) ms, "
            + "releasing \(Self.milliseconds(releaseSeconds)) ms, "
            + "laying out \(Self.milliseconds(layoutSeconds)) ms (\(rowsLaidOut) rows), "
            + "frames \(Self.milliseconds(frameSeconds)) ms (\(framesMade) frames)"
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    private static func milliseconds(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1000 }
}
