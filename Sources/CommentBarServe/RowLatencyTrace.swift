// SPDX-License-Identifier: GPL-2.0-or-later
/// How long each change to the bar's rows (a comment shown, a row deleted) waited inside the
/// renderer: from the moment it was applied to the bar (it came due: the flow's pacing and the
/// moderation delay are not waiting) until the first published frame that shows it. On only
/// with `COMMENTBAR_LATENCY_TRACE=1`, for benchmarks: `serve` then logs one line per frame,
/// `latency: rows shown after N.NNN ms (K changes)`, the oldest change's wait. A new feed starts
/// the bar's revisions again: the trace is started again with it.
struct RowLatencyTrace: Sendable {
    /// Changes not yet shown: the rows' revision after each, and when it was applied.
    private var waiting: [(revision: UInt64, at: Double)] = []
    /// Changes remembered at most (a frame loop that never publishes must not grow this).
    static let capacity = 4096

    /// The rows changed to `revision` at `time` (seconds of the flow's clock).
    mutating func changed(to revision: UInt64, at time: Double) {
        if waiting.count == Self.capacity { waiting.removeFirst() }
        waiting.append((revision, time))
    }

    /// A frame showing the rows at `revision` was published at `time`: the waits of the changes
    /// it shows, oldest first, in seconds.
    mutating func published(revision: UInt64, at time: Double) -> [Double] {
        let shown = waiting.prefix { $0.revision <= revision }
        waiting.removeFirst(shown.count)
        return shown.map { max(0, time - $0.at) }
    }
}
