// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarSupport
import FoundationEssentials
import NIOCore
import Synchronization

/// Follows an NDGR view URI (the seat's `messageServer`): `GET {view}?at=now` streams
/// `ChunkedEntry`s; each `segment` is a stream of `ChunkedMessage`s read at once (segments
/// overlap, so several are read together), and `next` names the following view request,
/// made as soon as it arrives. The first `backward` entry names the recent messages: the bar
/// starts with them, as history (`BackwardHistory`); `previous` entries (older segments) are not read.
struct SegmentStream: Sendable {
    enum End: Equatable, Sendable {
        case programmeEnded
        case lost(String)
    }

    let viewURI: String
    let site: WebAPI
    let problems: InputProblemLog
    let emit: @Sendable (FeedEvent) -> Void

    /// A view stream lasts about 30 s and a segment about 25 s (NDGRClient's notes); the deadline
    /// (the whole answer, body included) only ends hung ones. Messages are capped as they are split.
    static let streamLimits = WebLimits(maxBytes: DelimitedFrameSplitter.maxMessageBytes, timeout: .seconds(90))
    /// Never more view requests than one a second, whatever the server's `next` says.
    static let minViewInterval = Duration.seconds(1)
    /// View requests failing in a row before the seat is given up (and the watch page asked again).
    static let maxViewFailures = 4
    static let maxActiveSegments = 4
    static let segmentAttempts = 5

    func run() async -> End {
        let (ends, endSink) = AsyncStream.makeStream(of: End.self)
        let state = SegmentState()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { endSink.yield(await followView(state: state, ends: endSink)) }
            var end = End.lost("the comment stream stopped")
            for await first in ends {
                end = first
                break
            }
            group.cancelAll()
            return end
        }
    }

    private func followView(state: SegmentState, ends: AsyncStream<End>.Continuation) async -> End {
        var at = "now"
        var failures = 0
        var backoff = Backoff()
        return await withDiscardingTaskGroup { segments -> End in
            defer { segments.cancelAll() }
            while !Task.isCancelled {
                let started = ContinuousClock.now
                var next: Int64?
                var progressed = false
                var reason = "the view stream ended without a next entry"
                do {
                    let body = try await site.open(viewURL(at: at), limits: Self.streamLimits,
                                                   accept: "application/octet-stream")
                    let end = try await DelimitedMessageReader.read(body, as: NDGRChunkedEntry.self,
                                                                    problems: problems) { entry in
                        progressed = true
                        switch entry.entry {
                        case .segment(let segment)?:
                            if state.claim(segment.uri) {
                                let until = segment.hasUntil ? Double(segment.until.seconds) : nil
                                segments.addTask { await readSegment(segment.uri, until: until, state: state, ends: ends) }
                            }
                        case .next(let ready)?:
                            next = ready.at
                            return false
                        case .backward(let backward)?:
                            if backward.hasSegment, state.claimHistory() {
                                for event in await BackwardHistory.read(backward.segment.uri, site: site, problems: problems)
                                where state.isNew(event) {
                                    emit(event)
                                }
                            }
                        case .previous?:
                            break
                        case nil:
                            problems.note("a ChunkedEntry of an unknown kind")
                        }
                        return true
                    }
                    if end == .cutOff { reason = "the view stream was cut off inside a message" }
                } catch let error as WebFailure {
                    reason = error.description
                } catch let error as DelimitedFrameSplitter.Failure {
                    reason = "view stream: \(error.description)"
                } catch {
                    reason = "view stream: \(String("\(error)".prefix(120)))"
                }
                if Task.isCancelled { break }
                if let next {
                    at = String(next)
                    failures = 0
                    backoff.reset()
                } else if progressed {
                    // Entries came, then the stream stopped short of `next` (the HTTP client's read
                    // timeout ends a long silence): carry on from now; segments already read are not
                    // read again.
                    at = "now"
                    failures = 0
                    if !reason.hasSuffix("timed out") { problems.note(reason) }
                } else {
                    failures += 1
                    problems.note(reason)
                    if failures >= Self.maxViewFailures { return .lost(reason) }
                    try? await Task.sleep(for: backoff.nextDelay())
                }
                let elapsed = ContinuousClock.now - started
                if elapsed < Self.minViewInterval { try? await Task.sleep(for: Self.minViewInterval - elapsed) }
            }
            return .lost("cancelled")
        }
    }

    func viewURL(at: String) -> String {
        viewURI + (viewURI.contains("?") ? "&" : "?") + "at=" + at
    }

    /// Reads one segment; a stream that breaks before the segment's end is opened again (its
    /// messages are replayed, and the ones already shown are dropped by id).
    private func readSegment(_ uri: String, until: Double?, state: SegmentState,
                             ends: AsyncStream<End>.Continuation) async {
        guard state.beginSegment() else {
            problems.note("more than \(Self.maxActiveSegments) segments at once; one was skipped")
            return
        }
        defer { state.endSegment() }
        for attempt in 1...Self.segmentAttempts {
            do {
                let body = try await site.open(uri, limits: Self.streamLimits, accept: "application/octet-stream")
                if state.becomeLive() { emit(.status(.live)) }
                let end = try await DelimitedMessageReader.read(body, as: NDGRChunkedMessage.self,
                                                                problems: problems) { chunk in
                    for output in MessageMapper.map(chunk) {
                        switch output {
                        case .event(let event):
                            if state.isNew(event) { emit(event) }
                        case .programmeEnded:
                            ends.yield(.programmeEnded)
                            return false
                        case .ignored:
                            break
                        case .unknown(let what):
                            problems.note(what)
                        }
                    }
                    return true
                }
                switch end {
                case .finished, .stopped: return
                case .cutOff: problems.note("a segment stream was cut off inside a message")
                }
            } catch {
                problems.note("segment \(WebFailure.shown(uri)): \(String("\(error)".prefix(120)))")
            }
            // Only a segment that is still running is worth opening again.
            let now = WallClock.now()
            guard attempt < Self.segmentAttempts, !Task.isCancelled, let until, until > now else { return }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}

/// What the concurrent segment readers share: which segments were started, how many run,
/// the ids already shown (a reopened segment replays its messages), and whether `.live` was sent.
final class SegmentState: Sendable {
    private struct State {
        var claimedURIs = RecentSet(capacity: 64)
        var shownIDs = RecentSet(capacity: 4096)
        var active = 0
        var live = false
        var history = false
    }

    private let state = Mutex(State())

    /// True the first time a segment URI is seen.
    func claim(_ uri: String) -> Bool {
        state.withLock { $0.claimedURIs.insert(uri) }
    }

    func beginSegment() -> Bool {
        state.withLock { state in
            guard state.active < SegmentStream.maxActiveSegments else { return false }
            state.active += 1
            return true
        }
    }

    func endSegment() {
        state.withLock { $0.active -= 1 }
    }

    /// True once: the first backward entry (history is read once per feed run).
    func claimHistory() -> Bool {
        state.withLock { state in
            defer { state.history = true }
            return !state.history
        }
    }

    /// True once: when the first segment opens.
    func becomeLive() -> Bool {
        state.withLock { state in
            defer { state.live = true }
            return !state.live
        }
    }

    /// Rows are shown once per id; other events always.
    func isNew(_ event: FeedEvent) -> Bool {
        switch event {
        case .comment(let line), .gift(let line): return state.withLock { $0.shownIDs.insert(line.id) }
        default: return true
        }
    }
}

/// A set that remembers only its last `capacity` members.
struct RecentSet {
    let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    private var oldest = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Inserts `member`; false if it was already there.
    mutating func insert(_ member: String) -> Bool {
        guard !members.contains(member) else { return false }
        members.insert(member)
        if order.count < capacity {
            order.append(member)
        } else {
            members.remove(order[oldest])
            order[oldest] = member
            oldest = (oldest + 1) % capacity
        }
        return true
    }
}
