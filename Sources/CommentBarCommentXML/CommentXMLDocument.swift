// SPDX-License-Identifier: GPL-2.0-or-later
/// The newest comments comment.xml holds (at most `limit`, oldest first), the rows not yet
/// written (`pending`), and the file's text.
///
/// What the readers need of the numbers (their sources: docs/doors.md):
/// - HTML5コメジェネ takes a comment as new when its `time` is later than the last one it showed,
///   or the same with a greater `no`, comparing strings: `no` grows by one, at a fixed width.
/// - NiCommentGenerator takes a comment as new only when its `time` is later than the last row of
///   the file it read before: each write's new rows carry a later second than every earlier
///   write's (`mayStamp`), and `time` never goes back.
struct CommentXMLDocument: Sendable, Equatable {
    static let limit = 100

    private(set) var rows: [CommentXMLRow] = []
    /// Rows the bar showed that no file has held yet: numbered and timed when written.
    private(set) var pending: [CommentXMLRow] = []
    /// The `no` of the last row written (the file's own before the bar started).
    private(set) var lastNumber = 0
    /// The second of the last write that added rows (or the file's last row's).
    private(set) var lastTime = 0
    /// The text differs from the file's: rows were added or removed since the last write (or the
    /// file is new, with only its seed).
    private(set) var changed = false

    init(kept: [CommentXMLRow] = [], now: Int = 0) {
        rows = Array(kept.suffix(Self.limit))
        lastNumber = kept.map(\.number).max() ?? 0
        // A file from the future (a clock put back) would hold new rows back until then.
        lastTime = min(kept.map(\.time).max() ?? 0, now)
        changed = kept.contains { $0.owner && $0.time == 0 }
    }

    mutating func append(_ row: CommentXMLRow) {
        pending.append(row)
        if pending.count > Self.limit { pending.removeFirst(pending.count - Self.limit) }
    }

    /// Whether rows may be written in second `now`: not in the second of the last write that
    /// added some (its readers would take them as old).
    func mayStamp(at now: Int) -> Bool { pending.isEmpty || now > lastTime }

    /// The pending rows numbered and timed `now`, and moved to the file's rows.
    mutating func stamp(at now: Int) {
        guard !pending.isEmpty else { return }
        let time = max(now, lastTime)
        for var row in pending {
            lastNumber += 1
            row.stamp(number: lastNumber, time: time)
            rows.append(row)
        }
        pending.removeAll()
        lastTime = time
        changed = true
        if rows.count > Self.limit { rows.removeFirst(rows.count - Self.limit) }
    }

    /// Removes rows (a deletion, a ban, a clear); whether any went.
    mutating func remove(where matches: (CommentXMLRow) -> Bool) -> Bool {
        let before = rows.count + pending.count
        let written = rows.count
        rows.removeAll(where: matches)
        pending.removeAll(where: matches)
        if rows.count != written { changed = true }
        return rows.count + pending.count != before
    }

    /// The text to write, when it changed since the last taken (nil: the file already holds it).
    mutating func takeChangedText() -> String? {
        guard changed else { return nil }
        changed = false
        return text
    }

    /// The write of the text taken failed: the next one writes it again.
    mutating func writeFailed() { changed = true }

    /// Each row's element was escaped when it was stamped: this only joins them. Nil when there
    /// is no row: NiCommentGenerator stops for good after reading an empty `<log>`.
    var text: String? {
        guard !rows.isEmpty else { return nil }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<log>\n"
        text.reserveCapacity(rows.reduce(64) { $0 + $1.xml.utf8.count + 1 })
        for row in rows {
            text += row.xml
            text += "\n"
        }
        return text + "</log>\n"
    }
}
