// SPDX-License-Identifier: GPL-2.0-or-later
/// A row's id as the bar names it (`ChatLine.id` once the bar holds the row): the feed's own id,
/// with `N/` before it when the bar reads several streams (N the stream's 0-based index), so one
/// stream's deletions, bans and clears touch only its rows, and every door can tell which stream a
/// row came from. Written once here: nothing else builds or reads the prefix.
public struct RowID: Sendable, Equatable {
    /// The stream's index (nil: the bar reads one stream, and the id is the feed's own).
    public var stream: Int?
    /// The id the feed gave.
    public var feedID: String

    public init(_ feedID: String, stream: Int?) {
        self.feedID = feedID
        self.stream = stream
    }

    /// A feed's row id from `origin`: tagged only when the bar reads several streams.
    public init(_ feedID: String, from origin: BarState.Origin) {
        self.init(feedID, stream: origin.count > 1 ? origin.index : nil)
    }

    /// A row id the bar made, read back; ask only when the bar reads several streams (a lone
    /// stream's ids are the feed's own, and one may hold a slash).
    public init(parsing text: String) {
        if let slash = text.firstIndex(of: "/"), let index = Int(text[..<slash]), index >= 0 {
            self.init(String(text[text.index(after: slash)...]), stream: index)
        } else {
            self.init(text, stream: nil)
        }
    }

    /// How the bar writes it.
    public var text: String { stream.map { "\($0)/\(feedID)" } ?? feedID }

    /// The stream of a row among `count` streams (nil: one stream, or an id of no stream).
    public static func stream(ofRow text: String, among count: Int) -> Int? {
        count > 1 ? RowID(parsing: text).stream : nil
    }
}
