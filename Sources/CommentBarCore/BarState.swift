// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Everything the bar shows, as a value. Feeds change it only through `apply`.
public struct BarState: Sendable, Equatable {
    /// How many lines are kept; the renderer shows only those that fit.
    public static let retainedLines = 200
    static let maxGiftsTotal = 1_000_000_000_000

    /// Newest last.
    public private(set) var lines: [ChatLine] = []
    /// Changes whenever `lines` changes, so the renderer can skip comparing them (and need not keep
    /// them: an array it kept would make every new row copy them all). Each change takes the next
    /// number of one counter for the whole process, so two states with the same revision hold the
    /// same rows, even copies of one state changed apart.
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
    /// The filters and highlights every new row goes through.
    public var filters = ChatFilters.none
    /// Each stream's own state, when the bar reads several (see `apply(_:from:)`).
    public private(set) var streams: [StreamSlot] = []
    /// The comment pinned at the top of the bar (the control page, the hotkey), until it is
    /// unpinned, deleted by moderation or its time is up (`expirePin`).
    public private(set) var pinned: Pin?
    /// The audience taking part (issue 48): the poll, the queue and the winner, as the session's
    /// boards last said (`ParticipationPart`, at most four times a second).
    public var audience = AudienceView()
    /// Who has written in this stream, for the first-message highlight (bounded).
    private var seenUsers: Set<String> = []
    static let maxSeenUsers = 50_000

    /// One stream of several: its own status, viewers and start.
    public struct StreamSlot: Sendable, Equatable {
        public var name: String
        /// The service id, and its mark (the icon beside the stream's own viewer count).
        public var service = ""
        public var badge = PlatformBadge.plain
        public var status: FeedStatus = .connecting
        public var viewers: Int?
        public var start: Double?
    }

    /// A pinned comment, as the bar showed it, and when the pin ends (unix seconds; nil: when unpinned).
    public struct Pin: Sendable, Equatable {
        public var line: ChatLine
        public var until: Double?

        public init(line: ChatLine, until: Double?) {
            self.line = line
            self.until = until
        }

        /// Whether the pin still holds at unix time `now`.
        public func holds(at now: Double) -> Bool { until.map { now < $0 } ?? true }
    }

    /// Where an event came from when the bar reads several streams.
    public struct Origin: Sendable, Equatable {
        /// 0-based, below `count`.
        public var index: Int
        public var count: Int
        /// How the bar and the log name the stream (`YouTube`, `twitch:name`).
        public var name: String
        /// The service id.
        public var service: String
        /// The service's mark on the rows (its `ServiceDescription`'s badge).
        public var badge: PlatformBadge

        public init(index: Int, count: Int, name: String, service: String, badge: PlatformBadge) {
            self.index = index
            self.count = count
            self.name = name
            self.service = service
            self.badge = badge
        }

        /// Row ids are made unique per stream, so one stream's deletions touch only its rows.
        func rowID(_ id: String) -> String { RowID(id, stream: index).text }
        func owns(_ line: ChatLine) -> Bool { RowID(parsing: line.id).stream == index }
    }

    public init() {}

    /// An event of one of several streams: rows are tagged with their stream, and the
    /// header shows the streams together (viewers summed, the earliest start, the
    /// state of any stream that is not live, named).
    public mutating func apply(_ event: FeedEvent, from origin: Origin) {
        // One stream: its rows need no tag or icon.
        guard origin.count > 1 else { return apply(event) }
        if streams.count != origin.count {
            streams = (0..<origin.count).map { StreamSlot(name: $0 == origin.index ? origin.name : "") }
        }
        if streams[origin.index].name.isEmpty { streams[origin.index].name = origin.name }
        if streams[origin.index].service.isEmpty {
            streams[origin.index].service = origin.service
            streams[origin.index].badge = origin.badge
        }
        switch event {
        case .start(let time):
            streams[origin.index].start = time
            streamStart = streams.compactMap(\.start).min()
        case .viewers(let count):
            streams[origin.index].viewers = min(max(count, 0), FeedEventJSON.maxCount)
            let known = streams.compactMap(\.viewers)
            viewers = known.isEmpty ? nil : min(known.reduce(0, +), FeedEventJSON.maxCount)
        case .status(let status):
            streams[origin.index].status = status.sanitized
            self.status = Self.combined(streams)
        case .comment(var line):
            line.id = origin.rowID(line.id)
            line.platform = origin.service
            line.platformBadge = origin.badge
            apply(.comment(line))
        case .gift(var line):
            line.id = origin.rowID(line.id)
            line.platform = origin.service
            line.platformBadge = origin.badge
            apply(.gift(line))
        case .delete(let id):
            apply(.delete(id: origin.rowID(id)))
        case .deleteUser(let user):
            let key = user.lowercased()
            removeLines { origin.owns($0) && ($0.login ?? $0.user).lowercased() == key }
        case .clear:
            removeLines { origin.owns($0) }
        case .mic, .avatar, .background, .relayStatus, .channel:
            apply(event)
        }
    }

    /// Each stream's viewers beside its service, in the streams' order, for a header that shows
    /// them apart (`viewers_mode` each); empty with one stream (its count is `viewers`).
    public var viewersByStream: [StreamViewers] {
        streams.count > 1 ? streams.map { StreamViewers(service: $0.service, badge: $0.badge, viewers: $0.viewers) } : []
    }

    public struct StreamViewers: Sendable, Equatable {
        public var service: String
        public var badge: PlatformBadge
        public var viewers: Int?
        public init(service: String, badge: PlatformBadge = .plain, viewers: Int?) {
            self.service = service
            self.badge = badge
            self.viewers = viewers
        }
    }

    /// Live when every stream is; else the state of the first one that is not, named,
    /// most serious first: an error, then reconnecting, connecting, waiting, ended.
    static func combined(_ streams: [StreamSlot]) -> FeedStatus {
        func rank(_ status: FeedStatus) -> Int {
            switch status {
            case .error: return 0
            case .reconnecting: return 1
            case .connecting: return 2
            case .waiting: return 3
            case .ended: return 4
            case .paused: return 5
            case .live: return 6
            }
        }
        guard let worst = streams.min(by: { rank($0.status) < rank($1.status) }), worst.status != .live else {
            return .live
        }
        let detail = worst.status.detail.isEmpty ? worst.name : "\(worst.name): \(worst.status.detail)"
        switch worst.status {
        case .error: return .error(message: detail)
        case .reconnecting: return .reconnecting(reason: detail)
        case .waiting: return .waiting(reason: detail)
        case .ended: return .ended(reason: detail)
        case .connecting: return .connecting
        case .paused, .live: return worst.status
        }
    }

    public mutating func apply(_ event: FeedEvent) {
        switch event {
        case .start(let time):
            streamStart = time
        case .comment(let line):
            guard let shown = filtered(line) else { return }
            append(shown)
        case .gift(let original):
            guard let line = filtered(original) else { return }
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
            pinned = nil
            if !lines.isEmpty {
                lines.removeAll()
                linesRevision = Self.nextLinesRevision()
            }
        case .avatar(let image):
            avatar = image
        case .background(let image):
            background = image
        case .status(let status):
            self.status = status.sanitized
        case .relayStatus(let status):
            relayStatus = status == .live ? nil : status.sanitized
        case .channel:
            // For the viewer memory and the event API; nothing on the bar shows it.
            break
        }
    }

    /// Pins `line` (replacing any pin) until unix time `until` (nil: until unpinned).
    public mutating func pin(_ line: ChatLine, until: Double?) {
        pinned = Pin(line: line, until: until)
    }

    /// Takes the pin away: any pin, or only the one of row `id`. Whether a pin went.
    @discardableResult
    public mutating func unpin(id: String? = nil) -> Bool {
        guard let pinned, id == nil || pinned.line.id == id else { return false }
        self.pinned = nil
        return true
    }

    /// Takes away a pin whose time is up at unix time `now`; whether one went.
    @discardableResult
    public mutating func expirePin(now: Double) -> Bool {
        guard let pinned, !pinned.holds(at: now) else { return false }
        self.pinned = nil
        return true
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

    /// The row through the filters (nil: hidden), noting its writer for the first-message highlight.
    private mutating func filtered(_ line: ChatLine) -> ChatLine? {
        let key = (line.login ?? line.user).lowercased()
        // A replaced row (same id) is not a first message.
        let replaces = lines.contains { $0.id == line.id }
        var isFirst = false
        if !key.isEmpty, !replaces, seenUsers.count < Self.maxSeenUsers {
            isFirst = seenUsers.insert((line.platform ?? "") + "\u{1}" + key).inserted
        }
        // Recent messages from before the bar joined: their writers are known, never new.
        if line.isHistory { isFirst = false }
        guard var shown = filters.apply(line, isFirstMessage: isFirst) else { return nil }
        // A masked NG word inside an emote's text unmakes the emote: the mask shows.
        if shown.text != line.text { shown.emotes = Emote.valid(line.emotes, in: shown.text) }
        return shown
    }

    private static let linesRevisions = Atomic<UInt64>(0)

    private static func nextLinesRevision() -> UInt64 {
        linesRevisions.add(1, ordering: .relaxed).newValue
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
        linesRevision = Self.nextLinesRevision()
    }

    /// Removes the rows moderation took away; a pinned one goes from the pin too.
    private mutating func removeLines(where predicate: (ChatLine) -> Bool) {
        if let pinned, predicate(pinned.line) { self.pinned = nil }
        let before = lines.count
        lines.removeAll(where: predicate)
        if lines.count != before { linesRevision = Self.nextLinesRevision() }
    }
}
