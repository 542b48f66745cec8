// SPDX-License-Identifier: GPL-2.0-or-later
/// Between the feeds and `BarState`: comments wait here until they are due, paced (a burst
/// spread by its send times, `BurstPacer`) and held back by the moderation delay, during
/// which a deletion, a timeout, a ban or a clear removes them unseen. Gifts, history and
/// every other event (viewers, the clock's start, status) pass at once. Times are seconds
/// of one monotonic clock the caller gives (tests give their own).
public struct ChatFlow: Sendable {
    public struct Options: Sendable, Equatable {
        /// Spread bursts by their send times.
        public var paceBursts: Bool
        /// How long every comment waits before it is shown (seconds, `delay_seconds`'s range).
        public var delaySeconds: Double

        public init(paceBursts: Bool = true, delaySeconds: Double = 0) {
            self.paceBursts = paceBursts
            self.delaySeconds = min(max(delaySeconds.isFinite ? delaySeconds : 0, Self.minDelay), Self.maxDelay)
        }

        /// The moderation delay's bounds: the settings table's range for `delay_seconds`.
        public static let minDelay = Double(SettingsSchema.range("delay_seconds").lowerBound)
        public static let maxDelay = Double(SettingsSchema.range("delay_seconds").upperBound)
    }

    /// An event ready for `BarState.apply(_:from:)`.
    public struct Release: Sendable, Equatable {
        public var event: FeedEvent
        public var origin: BarState.Origin
    }

    /// Comments waiting in one stream beyond this are shown at once, oldest first: a backlog
    /// never grows, the pace speeds up.
    public static let maxWaitingPerStream = 60
    /// With a long delay and a flood, at most this many wait in all; the oldest beyond it are
    /// dropped unseen (a moderation delay never lets one through early, and memory stays bounded).
    public static let maxWaiting = 2000

    private struct Waiting: Sendable {
        var line: ChatLine
        var origin: BarState.Origin
        var arrival: Double
        /// When the pace alone would show it.
        var paced: Double
        var burst: UInt64?
        var sequence: UInt64
        /// History is not held back by the moderation delay.
        var delayed = true
    }

    public var options: Options
    private var waiting: [Waiting] = []
    private var pacers: [Int: BurstPacer] = [:]
    private var sequence: UInt64 = 0
    /// When each stream's current run of history began arriving.
    private var historySince: [Int: Double] = [:]
    /// History arriving together is shown together, this long after the first of it came.
    static let historyGathering = 0.1

    public init(options: Options = Options()) {
        self.options = options
    }

    /// How many comments wait.
    public var waitingCount: Int { waiting.count }

    /// When the next waiting comment is due; nil when none waits (nothing to wake for).
    public var nextDue: Double? {
        waiting.map(due).min()
    }

    /// Takes an event that arrived at `now`; returns what is to be applied now, in order.
    public mutating func receive(_ event: FeedEvent, from origin: BarState.Origin, now: Double) -> [Release] {
        switch event {
        case .comment(let line) where !line.isHistory:
            hold(line, from: origin, now: now)
            return release(now: now)
        case .comment(let line):
            // History is gathered for a moment, so the bar's first frame shows it all, never
            // delayed; its arrival starts the interval the next burst fills.
            if let sentAt = line.sentAt { _ = pacers[origin.index, default: BurstPacer()].arrive(sentAt: sentAt, now: now) }
            let since = historySince[origin.index].flatMap { now >= $0 && now - $0 <= BurstPacer.together ? $0 : nil }
            historySince[origin.index] = since ?? now
            sequence &+= 1
            waiting.append(Waiting(line: line, origin: origin, arrival: now,
                                   paced: (since ?? now) + Self.historyGathering,
                                   burst: nil, sequence: sequence, delayed: false))
            return release(now: now)
        case .status(.live):
            pacers[origin.index, default: BurstPacer()].noteLive(now: now)
        case .delete(let id):
            waiting.removeAll { $0.origin.index == origin.index && $0.line.id == id }
        case .deleteUser(let user):
            let key = user.lowercased()
            waiting.removeAll { $0.origin.index == origin.index && ($0.line.login ?? $0.line.user).lowercased() == key }
        case .clear:
            waiting.removeAll { $0.origin.index == origin.index }
        default:
            break
        }
        return release(now: now) + [Release(event: event, origin: origin)]
    }

    /// What has come due by `now`, in the order it is shown.
    public mutating func release(now: Double) -> [Release] {
        let delay = options.delaySeconds
        func due(_ item: Waiting) -> Double { item.delayed ? max(item.paced, item.arrival + delay) : item.paced }
        guard waiting.contains(where: { due($0) <= now }) else { return [] }
        let ready = waiting.filter { due($0) <= now }.sorted { (due($0), $0.sequence) < (due($1), $1.sequence) }
        waiting.removeAll { due($0) <= now }
        return ready.map { Release(event: .comment($0.line), origin: $0.origin) }
    }

    /// Forgets every waiting comment (the feeds were replaced).
    public mutating func reset() {
        waiting.removeAll()
        pacers.removeAll()
        historySince.removeAll()
    }

    private func due(_ item: Waiting) -> Double {
        item.delayed ? max(item.paced, item.arrival + options.delaySeconds) : item.paced
    }

    private mutating func hold(_ line: ChatLine, from origin: BarState.Origin, now: Double) {
        // A re-sent id (an edit, a placeholder) takes the waiting one's place and time.
        if let index = waiting.firstIndex(where: { $0.origin.index == origin.index && $0.line.id == line.id }) {
            waiting[index].line = line
            return
        }
        var paced = now
        var burst: UInt64?
        if options.paceBursts, let sentAt = line.sentAt {
            var pacer = pacers[origin.index] ?? BurstPacer()
            if pacer.arrive(sentAt: sentAt, now: now) {
                // The previous burst is shown by the time the next one comes.
                for index in waiting.indices where waiting[index].origin.index == origin.index {
                    waiting[index].paced = min(waiting[index].paced, now)
                }
            }
            pacers[origin.index] = pacer
            burst = pacer.burst
            paced = pacer.due(sentAt: sentAt)
            // The burst's spread changes as it grows: its waiting comments move with it.
            for index in waiting.indices where waiting[index].origin.index == origin.index && waiting[index].burst == burst {
                if let sent = waiting[index].line.sentAt { waiting[index].paced = pacer.due(sentAt: sent) }
            }
        }
        sequence &+= 1
        waiting.append(Waiting(line: line, origin: origin, arrival: now, paced: paced, burst: burst, sequence: sequence))
        let inStream = waiting.indices.filter { waiting[$0].origin.index == origin.index }
        if inStream.count > Self.maxWaitingPerStream {
            // The oldest of the stream are due now (never sooner than the moderation delay allows:
            // past it, the newest wait no longer than the delay).
            let oldest = inStream.sorted { waiting[$0].sequence < waiting[$1].sequence }
                .prefix(inStream.count - Self.maxWaitingPerStream)
            for index in oldest { waiting[index].paced = min(waiting[index].paced, now) }
        }
        if waiting.count > Self.maxWaiting { waiting.removeFirst(waiting.count - Self.maxWaiting) }
    }
}
