// SPDX-License-Identifier: GPL-2.0-or-later
/// The items waiting to be read, never more than `maxDelay` seconds behind: when speech would
/// start later than that after an item arrived, the oldest waiting items are dropped, and the
/// number dropped is read before the next item ("ほか N 件" / "N more"). Times are seconds on
/// any monotonic clock; durations are estimates until an item is synthesized.
///
/// The first-time sound (issue 29) waits in the same queue, as `chime` items: in order with
/// speech, never dropped for lateness nor counted as skipped; chimes that come to wait side by
/// side (their rows' readings dropped between them) ring once.
public struct SpeechQueue: Sendable {
    public struct Item: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A row's sentence, read by the engine.
            case speech
            /// The first-time sound, before its row's reading.
            case chime
        }

        public var id: String
        /// Whose row it is (folded), for a timeout or ban that removes all of a user's rows.
        public var user: String
        public var text: String
        public var arrived: Double
        public var kind: Kind
        /// Whose voice reads it (`speech_voices`, the viewer's own).
        public var voice: RequestedVoice

        public init(id: String, user: String, text: String, arrived: Double, kind: Kind = .speech,
                    voice: RequestedVoice = RequestedVoice()) {
            self.id = id
            self.user = user
            self.text = text
            self.arrived = arrived
            self.kind = kind
            self.voice = voice
        }
    }

    /// What to play next: a reading (the item's text, after the count of those skipped if any)
    /// or a chime (`item.kind`).
    public struct Utterance: Sendable, Equatable {
        public var text: String
        public var item: Item
        public var skippedBefore: Int
    }

    public var maxDelay: Double
    /// Seconds a character takes to read, for the estimate (Japanese kana at normal speed is
    /// about 8 a second; Latin letters about 14).
    public var secondsPerCharacter: Double
    /// How long a chime lasts, for the estimate.
    public var chimeSeconds: Double = 0
    /// A hard bound on waiting items, whatever the estimate says.
    public static let maxItems = 100

    public private(set) var waiting: [Item] = []
    /// Readings dropped since the last one read.
    public private(set) var skipped = 0

    public init(maxDelay: Double, secondsPerCharacter: Double = 0.11) {
        self.maxDelay = maxDelay
        self.secondsPerCharacter = secondsPerCharacter
    }

    public func estimate(_ text: String) -> Double {
        0.3 + Double(text.count) * secondsPerCharacter
    }

    /// Adds an item that arrived at `now`, while `busyUntil` is when what is being played now
    /// ends. The oldest waiting readings go while the newest item would not finish within
    /// `maxDelay`.
    public mutating func add(_ item: Item, now: Double, busyUntil: Double) {
        waiting.append(item)
        while waiting.count > Self.maxItems { drop(at: 0) }
        while finishOfNewest(now: now, busyUntil: busyUntil) > item.arrived + maxDelay,
              let oldest = waiting.dropLast().firstIndex(where: { $0.kind == .speech }) {
            drop(at: oldest)
        }
    }

    /// The next utterance at `now`, dropping readings that would now start too late. While
    /// reading is `paused` only chimes are taken; readings wait.
    public mutating func next(now: Double, paused: Bool = false) -> Utterance? {
        while let late = waiting.firstIndex(where: { $0.kind == .speech && now > $0.arrived + maxDelay }) {
            drop(at: late)
        }
        guard let index = paused ? waiting.firstIndex(where: { $0.kind == .chime }) : waiting.indices.first else {
            return nil
        }
        let item = waiting.remove(at: index)
        if item.kind == .chime {
            while index < waiting.count, waiting[index].kind == .chime { waiting.remove(at: index) }
            return Utterance(text: "", item: item, skippedBefore: 0)
        }
        let count = skipped
        skipped = 0
        return Utterance(text: Self.withSkipped(count, item.text), item: item, skippedBefore: count)
    }

    /// A deleted row not read yet is not read (nor chimed for).
    public mutating func remove(id: String) { waiting.removeAll { $0.id == id } }
    public mutating func remove(user: String) { waiting.removeAll { $0.user == user } }
    public mutating func removeAll() {
        waiting.removeAll()
        skipped = 0
    }

    /// Speech was turned off (or the sound was): only the other kind stays.
    public mutating func removeAll(_ kind: Item.Kind) {
        waiting.removeAll { $0.kind == kind }
        if kind == .speech { skipped = 0 }
    }

    /// "ほか 45 件。…" / "45 more. …"
    public static func withSkipped(_ count: Int, _ text: String) -> String {
        guard count > 0 else { return text }
        return SpeechLanguage.of(text) == .japanese ? "ほか\(count)件。\(text)" : "\(count) more. \(text)"
    }

    private func finishOfNewest(now: Double, busyUntil: Double) -> Double {
        var time = max(now, busyUntil)
        var pending = skipped
        var previous: Item.Kind?
        for item in waiting {
            switch item.kind {
            case .chime:
                // Chimes side by side ring once.
                if previous != .chime { time += chimeSeconds }
            case .speech:
                time += estimate(pending > 0 ? Self.withSkipped(pending, item.text) : item.text)
                pending = 0
            }
            previous = item.kind
        }
        return time
    }

    private mutating func drop(at index: Int) {
        if waiting.remove(at: index).kind == .speech { skipped += 1 }
    }
}
