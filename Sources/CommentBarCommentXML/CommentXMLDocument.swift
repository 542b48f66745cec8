// SPDX-License-Identifier: GPL-2.0-or-later
/// The newest comments comment.xml holds (at most `limit`, oldest first) and the file's text.
struct CommentXMLDocument: Sendable, Equatable {
    static let limit = 100

    private(set) var rows: [CommentXMLRow] = []
    /// The next comment's `no` (1, 2, 3…: the skins tell new comments by it).
    private(set) var nextNumber = 1

    mutating func append(_ make: (Int) -> CommentXMLRow) {
        rows.append(make(nextNumber))
        nextNumber += 1
        if rows.count > Self.limit { rows.removeFirst(rows.count - Self.limit) }
    }

    /// Removes rows (a deletion, a ban, a clear); whether any went.
    mutating func remove(where matches: (CommentXMLRow) -> Bool) -> Bool {
        let before = rows.count
        rows.removeAll(where: matches)
        return rows.count != before
    }

    /// Each row's element was escaped when it came: this only joins them.
    var text: String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<log>\n"
        text.reserveCapacity(rows.reduce(64) { $0 + $1.xml.utf8.count + 1 })
        for row in rows {
            text += row.xml
            text += "\n"
        }
        return text + "</log>\n"
    }
}
