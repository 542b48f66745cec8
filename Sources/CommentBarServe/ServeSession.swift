// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import CommentBarSpeech
import CommentBarSupport
import Glibc
import Logging
import Synchronization

/// One renderer process's work: it takes messages (settings, shown/hidden, OBS state, hotkeys),
/// runs the feeds the settings name, and makes a frame into the sink whenever something visible
/// changed, at most `fps` times a second. `run` returns when the messages end (the shim closed
/// stdin: OBS is gone or the source was destroyed).
///
/// The session's jobs are in files of their own: the stdin router (`StdinRouter.swift`), the feed
/// runner (`FeedRunner.swift`), the frame loop and the heartbeat (`FrameLoop.swift`,
/// `Heartbeat.swift`), pins and actions (`PinActions.swift`). Everything else that runs beside the
/// bar is a session part (`Parts/`), held in `parts`.
public final class ServeSession: @unchecked Sendable {
    // @unchecked: `sink` is used by `run` before the tasks start and then only by the frame loop
    // (the heartbeat has its own Sendable beat); all else shared is in `shared`, or Sendable.
    let sink: any FrameSink
    let log: Logger
    let shared = Mutex(SessionState(latency: getenv("COMMENTBAR_LATENCY_TRACE").map { _ in RowLatencyTrace() }))
    /// A frame loop busy this long with one wake-up is stuck: the heartbeat stops and the shim
    /// restarts us (10 s; the tests give a shorter one).
    let stallLimit: Duration
    let wake: AsyncStream<Void>
    let wakeUp: AsyncStream<Void>.Continuation
    let images: RemoteImageFetches
    let emotes: EmoteFetches
    /// Rings when the next paced or delayed comment is due.
    let flowAlarm: FlowAlarm
    /// Wakes the frame loop when the picture changes by itself (`NextRedraw`: the clock's next
    /// second, a pin's end, an animation's step).
    let redrawAlarm: FlowAlarm
    let frameThread: FrameThread?
    /// Who acts on the `actions` hotkeys: the session itself (pin, unpin, the control page)
    /// unless a test gives its own.
    let actions: (any BarActionHandler)?
    /// The viewers of several streams: their breakdown is logged at most once a minute.
    let viewersLog = LogThrottle(interval: .seconds(60))
    /// Everything that runs beside the bar, in order: each hears what the session hears, and the
    /// bar's notice is the first part's problem.
    let parts: [any SessionPart]

    /// Reading the chat aloud: idle (nothing loaded) while `speech` is off.
    public let speech: SpeechHook
    /// The viewer memory (issue 29): badges, nicknames and the chat log; idle while `remember` is off.
    public let memory: MemoryHook
    /// The control page and event API (issue 30): no socket, no thread while `control` is off.
    public let control: ControlHook

    /// `fetch`: how remote images are fetched (HTTPS by default; the tests give their own);
    /// `presenter`: the overlay, when this renderer can show one; `audio`: where speech goes;
    /// `secretStore`: where the source's secrets are kept (nil: nowhere, they last while their line does);
    /// `extraParts`: parts after the product's own (tests).
    public init(sink: any FrameSink, log: Logger, fetch: @escaping RemoteImageFetches.Fetch = RemoteImageFetches.https,
                emoteFetch: @escaping EmoteFetches.Fetch = EmoteFetches.https,
                presenter: (any FramePresenter)? = nil, audio: (any SpeechAudioSink)? = nil,
                actions: (any BarActionHandler)? = nil, secretStore: SecretStore? = SecretStore.standard(),
                stallLimit: Duration = .seconds(10), extraParts: [any SessionPart] = []) {
        self.sink = sink
        self.stallLimit = stallLimit
        self.actions = actions
        self.log = log
        let (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (self.wake, self.wakeUp) = (wake, wakeUp)
        // A part's problem is a line on the bar's status: the frame loop picks it up.
        speech = SpeechHook(sink: audio, log: log, changed: { wakeUp.yield() })
        memory = MemoryHook(log: log, changed: { wakeUp.yield() })
        // The frame loop's thread: its alarms ring there and it runs there (nil: on the pool).
        frameThread = FrameThread.start()
        flowAlarm = FlowAlarm(on: frameThread, ring: { wakeUp.yield() })
        redrawAlarm = FlowAlarm(on: frameThread, ring: { wakeUp.yield() })
        images = RemoteImageFetches(log: log, fetch: fetch, arrived: { wakeUp.yield() })
        emotes = EmoteFetches(log: log, fetch: emoteFetch, arrived: { wakeUp.yield() })
        let (polls, queue, giveaways) = (PollBoard(), QueueBoard(), GiveawayBoard())
        let backend = SessionControlBackend(speech: speech, memory: memory, polls: polls, queue: queue, giveaways: giveaways)
        control = ControlHook(log: log, backend: backend, changed: { wakeUp.yield() })
        let participation = ParticipationPart(polls: polls, queue: queue, giveaways: giveaways, control: control, log: log,
                                              changed: { wakeUp.yield() })
        // The parts list: a new part is one file in `Parts/` and one line here. The secrets come
        // first (every other part sees the settings with their credentials); the order of the
        // rest is the order in which their problems take the bar's status line.
        let optional: [(any SessionPart)?] = [
            SecretsPart(store: secretStore, log: log),
            SpeechPart(speech, control: control),
            MemoryPart(memory),
            BoardMemoryPart(polls: polls, queue: queue, giveaways: giveaways, memory: memory, log: log),
            ControlPart(control),
            ActionsPart(log: log, polls: polls, queue: queue, giveaways: giveaways, changed: { wakeUp.yield() }),
            OneCommePart(log: log, queue: queue, changed: { wakeUp.yield() }),
            CommentXMLPart(log: log, changed: { wakeUp.yield() }),
            participation,
            presenter.map(OverlayPart.init),
        ]
        parts = optional.compactMap { $0 } + extraParts
        backend.connect(self)
        participation.showOnBar { [weak self] view in self?.showAudience(view) }
        shared.withLock { $0.counted = participation }
    }

    /// A session that never ran (or ran and returned) leaves no thread waiting for its alarms.
    deinit {
        frameThread?.stop()
    }

    /// What the bar's status line says besides the feed's state: the first part's problem.
    var notice: String? {
        for part in parts {
            if let problem = part.problem { return problem }
        }
        return nil
    }

    /// Runs until `messages` ends. Each element is one stdin line (a `StdinMessage`).
    public func run(messages: AsyncStream<String>) async {
        sink.setStatus(.starting, detail: "")
        let heartbeat = sink.makeHeartbeat()
        await withTaskGroup(of: Void.self) { group in
            group.addTask(executorPreference: frameThread) { await self.frameLoop() }
            group.addTask { await self.beat(heartbeat) }
            await self.follow(messages)
            group.cancelAll()
        }
        frameThread?.stop()
        for part in parts { await part.stop() }
    }
}
