/// Everything the bar shows, as a value. Feeds change it only through `apply`.
public struct BarState: Sendable, Equatable {
    /// How many lines are kept; the renderer shows only those that fit.
    public static let retainedLines = 200
    static let maxGiftsTotal = 1_000_000_000_000

    /// Newest last.
    public private(set) var lines: [ChatLine] = []
    /// Changes whenever `lines` changes, so the renderer can skip comparing them.
    public private(set) var linesRevision: UInt64 = 0
    public var viewers: Int?
    public var giftsTotal: Int = 0
    /// Unix seconds; nil until the feed says when the stream started.
    public var streamStart: Double?
    /// What the feed's `mic` events said last; nil until one came (the badge then shows unknown).
    public var micOn: Bool?
    public var avatar: ImageReference?
    public var background: ImageReference?
    public var status: FeedStatus = .connecting
    /// What a relay says of its upstream, when it is not simply live.
    public var relayStatus: FeedStatus?

    public init() {}

    public mutating func apply(_ event: FeedEvent) {
        switch event {
        case .start(let time):
            streamStart = time
        case .comment(let line):
            append(line)
        case .gift(let line):
            if case .gift(_, let count) = line.kind {
                // Saturating: a hostile count must not trap.
                giftsTotal = min(giftsTotal + min(max(count, 0), FeedEventJSON.maxCount), Self.maxGiftsTotal)
            }
            append(line)
        case .viewers(let count):
            viewers = min(max(count, 0), FeedEventJSON.maxCount)
        case .mic(let on):
            micOn = on
        case .delete(let id):
            removeLines { $0.id == id }
        case .deleteUser(let user):
            let key = user.lowercased()
            removeLines { ($0.login ?? $0.user).lowercased() == key }
        case .clear:
            if !lines.isEmpty {
                lines.removeAll()
                linesRevision &+= 1
            }
        case .avatar(let image):
            avatar = image
        case .background(let image):
            background = image
        case .status(let status):
            self.status = status
        case .relayStatus(let status):
            relayStatus = status == .live ? nil : status
        }
    }

    /// The clock with no start: shown dimmed.
    public static let idleClockText = "--:--:--"
    /// The longest the clock counts: 9999:59:59 (a start from far away must not trap).
    static let maxElapsedSeconds = 9999 * 3600 + 3599

    /// Elapsed stream time as HH:MM:SS; past 99 hours the hours take more digits (100:00:00).
    public static func elapsedText(since start: Double?, now: Double) -> String {
        guard let start else { return idleClockText }
        // Clamped before converting: a start time from far away must not trap.
        let total = Int(min(max((now - start).rounded(.down), 0), Double(maxElapsedSeconds)))
        let hours = total / 3600, minutes = (total / 60) % 60, seconds = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds))"
    }

    private mutating func append(_ line: ChatLine) {
        // A repeated id replaces the old line in place (an edited or re-sent message).
        if let index = lines.lastIndex(where: { $0.id == line.id }) {
            lines[index] = line
        } else {
            lines.append(line)
            if lines.count > Self.retainedLines {
                lines.removeFirst(lines.count - Self.retainedLines)
            }
        }
        linesRevision &+= 1
    }

    private mutating func removeLines(where predicate: (ChatLine) -> Bool) {
        let before = lines.count
        lines.removeAll(where: predicate)
        if lines.count != before { linesRevision &+= 1 }
    }
}
