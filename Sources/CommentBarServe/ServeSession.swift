// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import CommentBarMemory
import CommentBarRender
import CommentBarServices
import CommentBarSpeech
import CommentBarSupport
import FoundationEssentials
import Glibc
import Logging
import Synchronization

/// One renderer process's work: it takes messages (settings, shown/hidden, OBS state, hotkeys), runs the
/// feed the settings name, and makes a frame into the sink whenever something visible
/// changed, at most `fps` times a second. `run` returns when the messages end (the
/// shim closed stdin: OBS is gone or the source was destroyed).
public final class ServeSession: BarActionHandler, @unchecked Sendable {
    // @unchecked: `sink` is used by `run` before the tasks start and then only by the
    // frame loop (the ticker has its own Sendable heartbeat); all else shared is in `shared`.
    private let sink: any FrameSink
    private let log: Logger

    struct Shared {
        var state = BarState()
        /// Comments waiting to be shown (paced bursts, the moderation delay).
        var flow = ChatFlow()
        var settings = BarSettings()
        var active = true
        /// What OBS says (streaming, recording, mic); kept when the feed changes.
        var obs = OBSLiveState()
        /// Bumped when the settings change, so the frame loop picks them up.
        var settingsRevision = 0
        /// Bumped when the feed is replaced: events from an older feed still in flight are dropped.
        var feedGeneration = 0
        /// Since when the frame loop has been working on a wake-up (nil: it waits for the next):
        /// the heartbeat stops if one takes `stallLimit`. An idle loop is not a stuck one.
        var frameLoopBusySince: ContinuousClock.Instant?
        /// Row changes not yet on screen, when `COMMENTBAR_LATENCY_TRACE` is set (nil: off).
        var latency: RowLatencyTrace?

        /// Applies what the flow released at `now`; returns what speech hears of it.
        mutating func apply(_ released: [ChatFlow.Release], now: Double) -> [((FeedEvent, ChatLine?), BarState.Origin)] {
            let revision = state.linesRevision
            let heard = released.map { (ServeSession.apply($0.event, from: $0.origin, to: &state), $0.origin) }
            if state.linesRevision != revision { latency?.changed(to: state.linesRevision, at: now) }
            return heard
        }
    }

    /// A frame loop busy this long with one wake-up is stuck: the heartbeat stops and the shim
    /// restarts us (10 s; the tests give a shorter one).
    private let stallLimit: Duration
    /// How often the heartbeat beats: the shim restarts a renderer whose heartbeat stood still
    /// for 3 s (docs/pool-abi.md), so this leaves it six beats. The frame loop is not woken by
    /// it: only by events and by `redrawAlarm`.
    static let heartbeatInterval = Duration.milliseconds(500)
    private let shared = Mutex(Shared(latency: getenv("COMMENTBAR_LATENCY_TRACE").map { _ in RowLatencyTrace() }))
    private let wake: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation
    private let images: RemoteImageFetches
    private let emotes: EmoteFetches
    private let flowAlarm: FlowAlarm
    /// Wakes the frame loop when the picture changes by itself (`NextRedraw`: the clock's next
    /// second, a pin's end, an animation's step).
    private let redrawAlarm: FlowAlarm
    /// Reading the chat aloud: idle (nothing loaded) while `speech` is off.
    let speech: SpeechHook
    /// The viewer memory (issue 29): badges, nicknames and the chat log; idle while `remember` is off.
    let memory: MemoryHook
    /// The overlay, when this renderer can show one (nil: the frames go to the sink only).
    private let presenter: (any FramePresenter)?
    /// Who acts on the `actions` hotkeys: the session itself (pin, unpin, the control page)
    /// unless a test gives its own.
    private let actions: (any BarActionHandler)?
    /// The control page and event API (issue 30): no socket, no thread while `control` is off.
    public let control: ControlHook
    /// Where the source's secrets are kept (nil: nowhere, they last while their line does).
    private let secretStore: SecretStore?

    /// `fetch`: how remote images are fetched (HTTPS by default; the tests give their own).
    public init(sink: any FrameSink, log: Logger, fetch: @escaping RemoteImageFetches.Fetch = RemoteImageFetches.https,
                emoteFetch: @escaping EmoteFetches.Fetch = EmoteFetches.https,
                presenter: (any FramePresenter)? = nil, audio: (any SpeechAudioSink)? = nil,
                actions: (any BarActionHandler)? = nil, secretStore: SecretStore? = SecretStore.standard(),
                stallLimit: Duration = .seconds(10)) {
        self.sink = sink
        self.stallLimit = stallLimit
        self.secretStore = secretStore
        self.presenter = presenter
        self.actions = actions
        self.log = log
        let (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (self.wake, self.wakeUp) = (wake, wakeUp)
        // A reading problem is a line on the bar's status: the frame loop picks it up.
        speech = SpeechHook(sink: audio, log: log, changed: { wakeUp.yield() })
        memory = MemoryHook(log: log, changed: { wakeUp.yield() })
        flowAlarm = FlowAlarm(ring: { wakeUp.yield() })
        redrawAlarm = FlowAlarm(ring: { wakeUp.yield() })
        images = RemoteImageFetches(log: log, fetch: fetch, arrived: { wakeUp.yield() })
        emotes = EmoteFetches(log: log, fetch: emoteFetch, arrived: { wakeUp.yield() })
        let backend = SessionControlBackend(speech: speech, memory: memory)
        control = ControlHook(log: log, backend: backend, changed: { wakeUp.yield() })
        backend.connect(self)
    }

    /// Runs until `messages` ends. Each element is one stdin line (a `StdinMessage`).
    public func run(messages: AsyncStream<String>) async {
        sink.setStatus(.starting, detail: "")
        let heartbeat = sink.makeHeartbeat()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.frameLoop() }
            group.addTask { await self.ticker(heartbeat) }
            await self.follow(messages)
            group.cancelAll()
        }
        await control.shutdown()
    }

    private func follow(_ messages: AsyncStream<String>) async {
        var feedTask: Task<Void, Never>?
        var feedKey: [String]?
        var actionTracker = ActionTracker()
        var secrets = SourceSecrets(store: secretStore)
        for await line in messages {
            // Each line is decoded once; each kind goes to its consumer typed.
            var message: StdinMessage
            do {
                message = try StdinMessage.decode(line: line)
            } catch {
                log.error("\(error.description)")
                continue
            }
            // Before anything starts a feed: a secret sent once is saved, a saved one read back.
            if let settings = message.settings {
                message.settings?.credentials = secrets.credentials(for: settings, reference: message.secrets, log: log)
            }
            if let speechSettings = message.speechSettings { speech.configure(speechSettings) }
            if let hotkeys = message.speech {
                // The event API hears the hotkeys' skips and pauses as it hears the page's.
                for action in speech.control(hotkeys) { control.speechAction(action.rawValue) }
            }
            if let counters = message.actions {
                for action in actionTracker.actions(for: counters) {
                    guard action == .forgetSecrets else {
                        (actions ?? self).perform(action)
                        continue
                    }
                    secrets.forget(log: log)
                    // The feeds stop using them now (the shim's settings line says so too).
                    var settings = shared.withLock { $0.settings }
                    if !settings.credentials.isEmpty {
                        settings.credentials = [:]
                        message.settings = settings
                    }
                }
            }
            memory.command(settings: message.settings, obs: message.obs)
            if let active = message.active {
                shared.withLock { $0.active = active }
                log.info("\(active ? "shown: rendering" : "hidden everywhere: paused")")
            }
            if let obs = message.obs {
                shared.withLock { $0.obs = obs }
            }
            if let settings = message.settings {
                for unknown in settings.unknownChoices { log.warning("settings: \(unknown)") }
                // A new secret (or none after "Forget") reconnects the feeds with it.
                let key = [settings.service, settings.streamID, settings.server] + settings.feeds
                    + settings.credentials.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }
                let filters = settings.filters
                shared.withLock {
                    $0.settings = settings
                    $0.settingsRevision += 1
                    // New rows go through the new filters; rows already shown stay.
                    $0.state.filters = filters
                    $0.flow.options = settings.flowOptions
                }
                presenter?.settingsChanged(settings)
                control.configure(enabled: settings.control, port: settings.controlPort)
                if key != feedKey {
                    feedTask?.cancel()
                    feedKey = key
                    feedTask = startFeed(settings)
                }
            }
            wakeUp.yield()
        }
        log.info("stdin closed: exiting")
        feedTask?.cancel()
        memory.stop()
        flowAlarm.cancel()
        redrawAlarm.cancel()
        wakeUp.finish()
    }

    private func startFeed(_ settings: BarSettings) -> Task<Void, Never> {
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
        control.streamsChanged(plan.streams.map {
            ControlStream(platform: $0.service, channel: $0.channel, colour: $0.badge.color.hex)
        })
        let memory = self.memory
        return Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, stream) in plan.streams.enumerated() {
                    let origin = BarState.Origin(index: index, count: plan.streams.count, name: stream.name,
                                                 service: stream.service, badge: stream.badge)
                    group.addTask {
                        // Each stream runs on its own: one that fails or hangs never stalls the others.
                        let isReplay = ServiceRegistry.product.service(id: stream.service)?.makeTimeline != nil
                        let feed = memory.feed(stream.feed, address: stream.address, isReplay: isReplay)
                        await feed.run { [weak self] event in
                            guard let self else { return }
                            if case .status(let status) = event {
                                self.log.info("feed status\(origin.count > 1 ? " (\(origin.name))" : ""): \(status.label)")
                            }
                            let now = self.flowAlarm.now
                            let (streams, due, heard) = self.shared.withLock {
                                shared -> ([BarState.StreamSlot], Double?, [((FeedEvent, ChatLine?), BarState.Origin)]) in
                                guard shared.feedGeneration == generation else { return ([], nil, []) }
                                let heard = shared.apply(shared.flow.receive(event, from: origin, now: now), now: now)
                                return (shared.state.streams, shared.flow.nextDue, heard)
                            }
                            self.flowAlarm.set(due)
                            for ((event, shown), origin) in heard { self.heard(event, shown: shown, origin: origin) }
                            if case .viewers = event, origin.count > 1 { self.logViewers(streams) }
                            self.wakeUp.yield()
                        }
                    }
                }
            }
        }
    }

    /// What speech and the control page hear of an event the bar applied.
    private func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        // History (a platform's recent chat on joining, the log's rows after a restart) is never
        // read aloud, but the control page and the event API list it, marked `history`.
        speech.heard(event, shown: shown?.isHistory == true ? nil : shown)
        control.heard(event, shown: shown, origin: origin)
    }

    /// Pins `line` at the top of the bar for `pin_seconds` (0: until unpinned); when the pin ends.
    func pin(_ line: ChatLine) -> Double? {
        let until = shared.withLock { shared -> Double? in
            let seconds = shared.settings.pinSeconds
            let until = seconds > 0 ? Date().timeIntervalSince1970 + Double(seconds) : nil
            shared.state.pin(line, until: until)
            return until
        }
        wakeUp.yield()
        return until
    }

    /// Takes the pin away (only row `id`'s, when given); whether one went.
    @discardableResult
    func unpin(id: String? = nil) -> Bool {
        let went = shared.withLock { $0.state.unpin(id: id) }
        if went { wakeUp.yield() }
        return went
    }

    /// The "Pin the newest comment" hotkey: the newest row the bar shows goes to the top.
    public func pinNewest() {
        guard let newest = shared.withLock({ $0.state.lines.last }) else { return }
        _ = pin(newest)
        log.info("pinned the newest comment (hotkey)")
    }

    /// How many rows the bar holds now (tests wait for a feed's rows before acting on them).
    var rowCount: Int { shared.withLock { $0.state.lines.count } }

    /// The "Unpin" hotkey.
    public func unpinComment() {
        if unpin() { log.info("unpinned (hotkey)") }
    }

    /// The source's "Open control page" button: the page in the default browser, with its token.
    public func openControlPage() {
        control.openPage()
    }

    /// The shim's pin and control hotkeys, one call per press.
    public func perform(_ action: BarAction) {
        switch action {
        case .pinNewest: pinNewest()
        case .unpin: unpinComment()
        case .openControl: openControlPage()
        case .forgetSecrets: break  // never handed here: the stdin loop keeps the secrets
        }
    }

    /// Applies one event the flow released (now due) to the bar, and says what speech and the
    /// control page hear of it: the event, and the row it added as the bar shows it (nil for
    /// anything filtered out).
    static func apply(_ event: FeedEvent, from origin: BarState.Origin,
                      to state: inout BarState) -> (FeedEvent, ChatLine?) {
        let revision = state.linesRevision
        state.apply(event, from: origin)
        let added = state.linesRevision != revision ? newRow(of: event, origin, in: state) : nil
        return (rowEvent(event, origin), added)
    }

    /// Deletions name rows as the bar does: a stream's own ids are tagged when there are several.
    static func rowEvent(_ event: FeedEvent, _ origin: BarState.Origin) -> FeedEvent {
        if case .delete(let id) = event, origin.count > 1 { return .delete(id: "\(origin.index)/\(id)") }
        return event
    }

    /// The row a comment or gift added, as the bar shows it (filtered, NG words masked).
    static func newRow(of event: FeedEvent, _ origin: BarState.Origin, in state: BarState) -> ChatLine? {
        guard case .comment(let line) = event, let last = state.lines.last else {
            if case .gift(let line) = event, let last = state.lines.last { return matches(last, line, origin) }
            return nil
        }
        return matches(last, line, origin)
    }

    private static func matches(_ row: ChatLine, _ line: ChatLine, _ origin: BarState.Origin) -> ChatLine? {
        row.id == (origin.count > 1 ? "\(origin.index)/\(line.id)" : line.id) ? row : nil
    }

    /// The viewers of several streams, their breakdown: logged at most once a minute.
    private let viewersLog = LogThrottle(interval: .seconds(60))

    private func logViewers(_ streams: [BarState.StreamSlot]) {
        guard viewersLog.admit() != nil else { return }
        let parts = streams.map { "\($0.name) \($0.viewers.map(String.init) ?? "–")" }
        let total = streams.compactMap(\.viewers).reduce(0, +)
        log.info("viewers: \(parts.joined(separator: ", ")) (\(total) in all)")
    }

    /// Beats the heart while the frame loop is idle or at work on a wake-up for less than
    /// `stallLimit`: one slow frame (a huge image) is not a hang, but a loop stuck that long is,
    /// and then the beat stops.
    private func ticker(_ heartbeat: @Sendable () -> Void) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.heartbeatInterval)
            let busySince = shared.withLock { $0.frameLoopBusySince }
            if busySince.map({ ContinuousClock.now - $0 < stallLimit }) ?? true { heartbeat() }
        }
    }

    /// Makes a frame when something visible changed, at most `fps` times a second (`FramePacer`:
    /// a frame wanted after a quiet moment goes out at once).
    private func frameLoop() async {
        let clock = ContinuousClock()
        let heartbeat = sink.makeHeartbeat()
        var renderer: BarRenderer?
        var settingsRevision = -1
        var pacer = FramePacer(fps: 30)
        var preparedAt: UInt64 = .max
        var lastStatus: (SinkStatus, String)?
        var emotesWantedFor: EmoteRows.Key?
        var cpu = FrameLoopCPU(isOn: getenv("COMMENTBAR_CPU_TRACE") != nil)
        for await _ in wake {
            heartbeat()
            defer { shared.withLock { $0.frameLoopBusySince = nil } }
            let now = flowAlarm.now
            let snapshot = cpu.measure(.release) {
                let (snapshot, nextComment, released) = shared.withLock { shared in
                    shared.frameLoopBusySince = clock.now
                    // Comments that came due (the alarm rang, or any other wake-up) are shown now.
                    let heard = shared.apply(shared.flow.release(now: now), now: now)
                    shared.state.expirePin(now: Date().timeIntervalSince1970)
                    return (shared, shared.flow.nextDue, heard)
                }
                flowAlarm.set(nextComment)
                for ((event, shown), origin) in released { heard(event, shown: shown, origin: origin) }
                return snapshot
            }
            control.pinShown(snapshot.state.pinned)
            let status = Self.sinkStatus(snapshot.active ? snapshot.state.status : .paused)
            if lastStatus?.0 != status.0 || lastStatus?.1 != status.1 {
                sink.setStatus(status.0, detail: status.1)
                lastStatus = status
            }
            guard snapshot.active else { continue }
            if snapshot.settingsRevision != settingsRevision {
                if let renderer {
                    renderer.update(settings: snapshot.settings)
                } else {
                    renderer = BarRenderer(settings: snapshot.settings, width: sink.width, height: sink.height,
                                           remoteImages: images.store, emotes: emotes.store)
                }
                settingsRevision = snapshot.settingsRevision
                preparedAt = .max  // the rows' style may have changed: they are laid out again
            }
            guard let renderer else { continue }
            // The streamer's own files win; a feed's https images are fetched off this loop.
            images.want(snapshot.settings.avatarPath.isEmpty ? snapshot.state.avatar : nil, for: .avatar)
            images.want(snapshot.settings.backgroundPath.isEmpty ? snapshot.state.background : nil, for: .background)
            let emoteRows = EmoteRows.key(of: snapshot.state)
            if emoteRows != emotesWantedFor {
                emotes.want(EmoteRows.rows(of: snapshot.state))
                emotesWantedFor = emoteRows
            }
            if snapshot.state.linesRevision != preparedAt {
                // New rows are laid out now, not when their frame is due.
                cpu.laidOut(rows: cpu.measure(.layout) { renderer.prepare(snapshot.state) })
                preparedAt = snapshot.state.linesRevision
            }
            if pacer.fps != max(snapshot.settings.maxFPS, 1) { pacer = FramePacer(fps: snapshot.settings.maxFPS) }
            let wait = pacer.earliest(now: flowAlarm.now) - flowAlarm.now
            if wait > 0 { try? await clock.sleep(for: .nanoseconds(Int64(wait * 1e9))) }
            let latest = shared.withLock { $0 }
            let unixNow = Date().timeIntervalSince1970
            let notice = speech.problem ?? memory.problem ?? control.problem
            if cpu.measure(.frame, { renderer.render(latest.state, obs: latest.obs, notice: notice, now: unixNow, into: sink) }) {
                cpu.madeFrame()
                let published = flowAlarm.now
                pacer.made(at: published)
                presenter?.framePublished()
                traceLatency(shown: latest.state.linesRevision, at: published)
            }
            if let due = NextRedraw.after(unixNow, state: latest.state, obs: latest.obs, settings: latest.settings,
                                          animating: renderer.showsAnimation) {
                redrawAlarm.set(redrawAlarm.now + max(due - Date().timeIntervalSince1970, 0))
            }
            if let line = cpu.lineIfDue() { log.info("\(line)") }
        }
    }

    /// With `COMMENTBAR_LATENCY_TRACE` set: how long the rows this frame shows waited for it.
    private func traceLatency(shown revision: UInt64, at time: Double) {
        guard let waits = shared.withLock({ $0.latency?.published(revision: revision, at: time) }),
              let oldest = waits.first else { return }
        log.info("latency: rows shown after \(Double(Int((oldest * 1e6).rounded())) / 1000) ms (\(waits.count) changes)")
    }

    /// The state, and only what the state's name does not already say.
    static func sinkStatus(_ status: FeedStatus) -> (SinkStatus, String) {
        switch status {
        case .connecting: return (.connecting, "")
        case .live: return (.live, "")
        case .reconnecting(let reason): return (.reconnecting, reason)
        case .error(let message): return (.error, message)
        case .paused: return (.paused, "")
        case .waiting(let reason): return (.waiting, reason)
        case .ended(let reason): return (.ended, reason)
        }
    }
}
