// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CommentBarCore
import FoundationEssentials

/// Events on a timeline of seconds from the start of a replay: the `file` and
/// `demo` services.
///
/// Time in a file is virtual: `origin` is the unix time of `at` = 0, taken
/// from a `recording` header if there is one (as `commentbar tail` writes),
/// else from the first `start` event (its time minus its `at`), so a replay
/// shows the same elapsed clock as the original stream did.
public struct FeedTimeline: Sendable {
    public struct Entry: Sendable, Equatable {
        public var at: Double
        public var event: FeedEvent
        public init(at: Double, event: FeedEvent) {
            self.at = at
            self.event = event
        }
    }

    /// Sorted by `at` (stable: equal times keep file order).
    public private(set) var entries: [Entry]
    public var origin: Double?

    public init(entries: [Entry], origin: Double? = nil) {
        self.entries = entries.enumerated()
            .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
        self.origin = origin ?? entries.lazy.compactMap { entry -> Double? in
            if case .start(let time) = entry.event { return time - entry.at }
            return nil
        }.first
    }

    /// The bar as it is `seconds` into the replay, and the unix time its clock reads then.
    public func state(at seconds: Double, filters: ChatFilters = .none) -> (state: BarState, now: Double) {
        var state = BarState()
        state.filters = filters
        state.status = .live
        for entry in entries where entry.at <= seconds {
            state.apply(entry.event.arrived(at: (origin ?? 0) + entry.at))
        }
        return (state, (origin ?? 0) + seconds)
    }

    /// Several replays on one bar, as `serve` merges several streams: their events in
    /// time order, each from its stream; the clock reads the first replay's time.
    public static func mergedState(_ parts: [(timeline: FeedTimeline, origin: BarState.Origin)], at seconds: Double,
                                   filters: ChatFilters = .none) -> (state: BarState, now: Double) {
        guard parts.count > 1, let first = parts.first else {
            return parts.first?.timeline.state(at: seconds, filters: filters) ?? (BarState(), 0)
        }
        var state = BarState()
        state.filters = filters
        var merged: [(at: Double, part: Int, offset: Int, event: FeedEvent)] = []
        for (part, item) in parts.enumerated() {
            state.apply(.status(.live), from: item.origin)
            for (offset, entry) in item.timeline.entries.enumerated() where entry.at <= seconds {
                merged.append((entry.at, part, offset, entry.event))
            }
        }
        merged.sort { ($0.at, $0.part, $0.offset) < ($1.at, $1.part, $1.offset) }
        let origin = first.timeline.origin ?? 0
        for item in merged { state.apply(item.event.arrived(at: origin + item.at), from: parts[item.part].origin) }
        return (state, (first.timeline.origin ?? 0) + seconds)
    }

    public var duration: Double { entries.last?.at ?? 0 }

    /// Reads a JSON-lines file. Blank lines and lines starting with `//` are skipped;
    /// any other bad line is an error naming the file and line.
    public static func load(path: String) throws(FeedConfigError) -> FeedTimeline {
        // Only regular files of a sane size: a FIFO or /dev/zero must not hang or exhaust the renderer.
        do {
            try RegularFile.check(path, maxBytes: maxFileBytes)
        } catch {
            throw FeedConfigError(error.description)
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FeedConfigError("\(path): cannot be read")
        }
        return try parse(data: data, name: path)
    }

    public static let maxFileBytes = 64 << 20

    public static func parse(data: Data, name: String) throws(FeedConfigError) -> FeedTimeline {
        var entries: [Entry] = []
        var origin: Double?
        var lineNumber = 0
        var lastAt = 0.0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = TextSanitizer.decodeLossy(rawLine).trimmingWhitespace(andNewlines: true)
            if line.isEmpty || line.hasPrefix("//") { continue }
            do {
                switch try FeedEventJSON.parse(line) {
                case .recording(let time):
                    origin = time
                case .event(let event, let at):
                    // A line without `at` happens together with the line before it.
                    lastAt = at ?? lastAt
                    entries.append(Entry(at: lastAt, event: event))
                }
            } catch {
                throw FeedConfigError("\(name):\(lineNumber): \(error.message)")
            }
        }
        return FeedTimeline(entries: entries, origin: origin)
    }
}

/// Replays a timeline in real time; the demo loops it with fresh comment ids.
public struct TimelineFeed: CommentFeed {
    public var timeline: FeedTimeline
    /// Seconds after which the timeline starts again (nil: play once, then stay live).
    public var loopEvery: Double?

    public init(timeline: FeedTimeline, loopEvery: Double?) {
        self.timeline = timeline
        self.loopEvery = loopEvery
    }

    public func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let clock = ContinuousClock()
        let started = clock.now
        let wallAtStart = WallClock.now()
        // Start times are moved from the file's clock onto the wall clock.
        let shift = wallAtStart - (timeline.origin ?? wallAtStart)
        emit(.status(.live))
        var lap = 0
        repeat {
            let lapOffset = Double(lap) * (loopEvery ?? 0)
            for entry in timeline.entries {
                if lap > 0, case .start = entry.event { continue }
                let due = started.advanced(by: .seconds(lapOffset + entry.at))
                do { try await clock.sleep(until: due) } catch { return }
                emit(Self.relabel(entry.event, lap: lap, shift: shift))
            }
            lap += 1
            if let loopEvery {
                let due = started.advanced(by: .seconds(Double(lap) * loopEvery))
                do { try await clock.sleep(until: due) } catch { return }
            }
        } while loopEvery != nil && !Task.isCancelled
        // A file that has ended keeps the bar as it is until the source is changed.
        while !Task.isCancelled {
            do { try await clock.sleep(for: .seconds(3600)) } catch { return }
        }
    }

    private static func relabel(_ event: FeedEvent, lap: Int, shift: Double) -> FeedEvent {
        switch event {
        case .start(let time):
            return .start(time: time + shift)
        case .comment(var line) where lap > 0:
            line.id += "#\(lap)"
            return .comment(line)
        case .gift(var line) where lap > 0:
            line.id += "#\(lap)"
            return .gift(line)
        case .delete(let id) where lap > 0:
            return .delete(id: id + "#\(lap)")
        default:
            return event
        }
    }
}

extension FeedEvent {
    /// A comment or a gift as it arrived at unix time `time` on the replay's clock (`ChatLine.arrivedAt`).
    func arrived(at time: Double) -> FeedEvent {
        switch self {
        case .comment(var line):
            line.arrivedAt = time
            return .comment(line)
        case .gift(var line):
            line.arrivedAt = time
            return .gift(line)
        default:
            return self
        }
    }
}
