// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarServices
import CommentBarSupport

/// The feed runner: starts the feeds a bar's settings name (each wrapped by every part), feeds
/// their events through the flow into the bar, and replaces them when the settings name others
/// (or other secrets: a new secret, or none after "Forget", reconnects with it).
struct FeedRunner {
    private let session: ServeSession
    private var task: Task<Void, Never>?
    private var key: [String]?

    init(session: ServeSession) {
        self.session = session
    }

    /// A settings line: the feeds start again if what they connect to changed.
    mutating func follow(_ settings: BarSettings) {
        let key = [settings.service, settings.streamID, settings.server] + settings.feeds
            + settings.credentials.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }
        guard key != self.key else { return }
        task?.cancel()
        self.key = key
        task = session.startFeeds(settings)
    }

    func stop() {
        task?.cancel()
    }
}

extension ServeSession {
    fileprivate func startFeeds(_ settings: BarSettings) -> Task<Void, Never> {
        let filters = settings.filters
        let generation = shared.withLock {
            $0.state = BarState()
            $0.state.filters = filters
            $0.flow.reset()
            $0.latency = $0.latency.map { _ in RowLatencyTrace() }
            $0.feedGeneration += 1
            return $0.feedGeneration
        }
        let plan = StreamPlan(settings: settings)
        for problem in plan.problems { log.error("\(problem)") }
        log.info("feeds: \(plan.streams.map(\.name).joined(separator: ", "))")
        for part in parts { part.streamsChanged(plan.streams) }
        let parts = self.parts
        // On the loop that reads the feeds' connections and serves the doors (`NetworkLoop`): a
        // message read resumes its feed there, and what the parts hand to the doors stays there.
        return Task(executorPreference: NetworkLoop.executor) {
            await withTaskGroup(of: Void.self) { group in
                for (index, stream) in plan.streams.enumerated() {
                    let origin = BarState.Origin(index: index, count: plan.streams.count, name: stream.name,
                                                 service: stream.service, badge: stream.badge)
                    let feed = parts.reduce(stream.feed) { feed, part in part.wrap(feed, stream: stream) }
                    // Each stream runs on its own: one that fails or hangs never stalls the others.
                    group.addTask {
                        await feed.run { [weak self] event in
                            self?.received(event, from: origin, generation: generation)
                        }
                    }
                }
            }
        }
    }

    /// One event of a stream: through the flow (paced, delayed) into the bar; what came due is
    /// heard by the parts, and the frame loop is woken.
    private func received(_ event: FeedEvent, from origin: BarState.Origin, generation: Int) {
        if case .status(let status) = event {
            log.info("feed status\(origin.count > 1 ? " (\(origin.name))" : ""): \(status.label)")
        }
        let now = flowAlarm.now
        let (streams, due, heard) = shared.withLock {
            shared -> ([BarState.StreamSlot], Double?, [SessionState.Heard]) in
            guard shared.feedGeneration == generation else { return ([], nil, []) }
            let heard = shared.apply(shared.flow.receive(event, from: origin, now: now), now: now)
            return (shared.state.streams, shared.flow.nextDue, heard)
        }
        flowAlarm.set(due)
        tell(heard)
        if case .viewers = event, origin.count > 1 { logViewers(streams) }
        wakeUp.yield()
    }

    /// Every part hears the events the bar applied.
    func tell(_ heard: [SessionState.Heard]) {
        for (event, shown, origin) in heard {
            for part in parts { part.heard(event, shown: shown, origin: origin) }
        }
    }

    /// The viewers of several streams, their breakdown: logged at most once a minute.
    private func logViewers(_ streams: [BarState.StreamSlot]) {
        guard viewersLog.admit() != nil else { return }
        let parts = streams.map { "\($0.name) \($0.viewers.map(String.init) ?? "–")" }
        let total = streams.compactMap(\.viewers).reduce(0, +)
        log.info("viewers: \(parts.joined(separator: ", ")) (\(total) in all)")
    }
}
