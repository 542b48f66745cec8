// SPDX-License-Identifier: GPL-2.0-or-later
/// The items waiting to be read, never more than `maxDelay` seconds behind: when speech would
/// start later than that after an item arrived, the oldest waiting items are dropped, and the
/// number dropped is read before the next item ("ほか N 件" / "N more"). Times are seconds on
/// any monotonic clock; durations are estimates until an item is synthesized.
public struct SpeechQueue: Sendable {
    public struct Item: Sendable, Equatable {
        public var id: String
        /// Whose row it is (folded), for a timeout or ban that removes all of a user's rows.
        public var user: String
        public var text: String
        public var arrived: Double

        public init(id: String, user: String, text: String, arrived: Double) {
            self.id = id
            self.user = user
            self.text = text
            self.arrived = arrived
        }
    }

    /// What to read next: the item's text, after the count of those skipped if any.
    public struct Utterance: Sendable, Equatable {
        public var text: String
        public var item: Item
        public var skippedBefore: Int
    }

    public var maxDelay: Double
    /// Seconds a character takes to read, for the estimate (Japanese kana at normal speed is
    /// about 8 a second; Latin letters about 14).
    public var secondsPerCharacter: Double
    /// A hard bound on waiting items, whatever the estimate says.
    public static let maxItems = 100

    public private(set) var waiting: [Item] = []
    /// Dropped since the last utterance.
    public private(set) var skipped = 0

    public init(maxDelay: Double, secondsPerCharacter: Double = 0.11) {
        self.maxDelay = maxDelay
        self.secondsPerCharacter = secondsPerCharacter
    }

    public func estimate(_ text: String) -> Double {
        0.3 + Double(text.count) * secondsPerCharacter
    }

    /// Adds an item that arrived at `now`, while `busyUntil` is when what is being read now ends.
    /// The oldest waiting items go while the newest would not finish within `maxDelay`.
    public mutating func add(_ item: Item, now: Double, busyUntil: Double) {
        waiting.append(item)
        while waiting.count > Self.maxItems { drop(at: 0) }
        while waiting.count > 1, finishOfNewest(now: now, busyUntil: busyUntil) > item.arrived + maxDelay {
            drop(at: 0)
        }
    }

    /// The next utterance at `now`, dropping items that would now start too late.
    public mutating func next(now: Double) -> Utterance? {
        while let first = waiting.first, now > first.arrived + maxDelay { drop(at: 0) }
        guard !waiting.isEmpty else { return nil }
        let item = waiting.removeFirst()
        let count = skipped
        skipped = 0
        return Utterance(text: Self.withSkipped(count, item.text), item: item, skippedBefore: count)
    }

    /// A deleted row not read yet is not read.
    public mutating func remove(id: String) { waiting.removeAll { $0.id == id } }
    public mutating func remove(user: String) { waiting.removeAll { $0.user == user } }
    public mutating func removeAll() {
        waiting.removeAll()
        skipped = 0
    }

    /// "ほか 45 件。…" / "45 more. …"
    public static func withSkipped(_ count: Int, _ text: String) -> String {
        guard count > 0 else { return text }
        return SpeechLanguage.of(text) == .japanese ? "ほか\(count)件。\(text)" : "\(count) more. \(text)"
    }

    private func finishOfNewest(now: Double, busyUntil: Double) -> Double {
        var time = max(now, busyUntil)
        let pending = skipped
        for (index, item) in waiting.enumerated() {
            let announce = index == 0 && pending > 0 ? Self.withSkipped(pending, item.text) : item.text
            time += estimate(announce)
        }
        return time
    }

    private mutating func drop(at index: Int) {
        waiting.remove(at: index)
        skipped += 1
    }
}
