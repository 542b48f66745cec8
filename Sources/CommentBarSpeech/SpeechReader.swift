// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Logging
import Synchronization

/// Reads rows aloud while speech is on: the rules make each row's sentence, the queue keeps
/// reading within `speech_max_delay`, the engine synthesizes on its own task (never the frame
/// loop) and the PCM goes to the sink a little ahead of playback, so a skip or a pause takes
/// effect at once.
public final class SpeechReader: Sendable {
    struct State {
        var settings: SpeechSettings
        var queue: SpeechQueue
        var busyUntil: Double = 0
        /// Bumped by every skip (a hotkey's or the control page's): what is playing stops.
        var skips = 0
        /// The shim's skip counter as last seen: a new value is one press of the hotkey.
        var hotkeySkips = 0
        var paused = false
        /// The problem the bar shows now (nil: none).
        var showing: String?
    }

    /// How far ahead of playback PCM is written (seconds).
    static let writeAhead = 0.3
    private let state: Mutex<State>
    private let sink: any SpeechAudioSink
    private let report: @Sendable (SpeechProblem?) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let wake: AsyncStream<Void>.Continuation
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// The same problem is logged at most once a minute (the bar shows it every time).
    private let problemLog = LogThrottle(interval: .seconds(60), maxKeys: 32)

    /// `report`: an item could not be spoken (a line for the bar's status, and for the log when
    /// `logged`), or nil: an item was spoken again after a problem, the status line goes.
    public init(settings: SpeechSettings, sink: any SpeechAudioSink,
                report: @escaping @Sendable (SpeechProblem?) -> Void) {
        state = Mutex(State(settings: settings, queue: SpeechQueue(maxDelay: Double(settings.maxDelay))))
        self.sink = sink
        self.report = report
        start = clock.now
        let (stream, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        let loop = Task.detached { [weak self] in
            for await _ in stream {
                guard let self else { return }
                await self.readWaiting()
            }
        }
        task.withLock { $0 = loop }
    }

    deinit {
        wake.finish()
        task.withLock { $0?.cancel() }
    }

    public func stop() {
        wake.finish()
        task.withLock { $0?.cancel() }
        sink.discardQueued()
    }

    var now: Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    public func update(_ settings: SpeechSettings) {
        state.withLock {
            $0.settings = settings
            $0.queue.maxDelay = Double(settings.maxDelay)
        }
    }

    /// A row the bar shows (already through its filters).
    public func add(_ line: ChatLine) {
        let rules = state.withLock { ReadingRules($0.settings) }
        guard let text = rules.sentence(for: line) else { return }
        let user = (line.login ?? line.user).lowercased()
        sink.markArrival()
        let time = now
        state.withLock {
            $0.queue.add(SpeechQueue.Item(id: line.id, user: user, text: text, arrived: time), now: time,
                         busyUntil: $0.busyUntil)
        }
        wake.yield()
    }

    public func remove(id: String) {
        state.withLock { $0.queue.remove(id: id) }
    }

    public func remove(user: String) {
        state.withLock { $0.queue.remove(user: user.lowercased()) }
    }

    public func removeAll() {
        state.withLock { $0.queue.removeAll() }
    }

    public func control(_ control: SpeechControl) {
        let changed = state.withLock { state -> Bool in
            let skip = control.skip != state.hotkeySkips
            state.hotkeySkips = control.skip
            if skip { state.skips &+= 1 }
            state.paused = control.paused
            return skip || control.paused
        }
        if changed { sink.discardQueued() }
        wake.yield()
    }

    /// Cuts short what is being read (the control page's skip).
    public func skip() {
        state.withLock { $0.skips &+= 1 }
        sink.discardQueued()
        wake.yield()
    }

    /// Pauses (true) or resumes (false) reading, or toggles it (nil); the state after.
    public func pause(_ paused: Bool?) -> Bool {
        let now = state.withLock { state -> Bool in
            state.paused = paused ?? !state.paused
            return state.paused
        }
        if now { sink.discardQueued() }
        wake.yield()
        return now
    }

    private func readWaiting() async {
        while !Task.isCancelled {
            let time = now
            let next = state.withLock { state -> (SpeechQueue.Utterance, SpeechSettings, Int)? in
                guard !state.paused, let utterance = state.queue.next(now: time) else { return nil }
                return (utterance, state.settings, state.skips)
            }
            guard let (utterance, settings, skips) = next else { return }
            await read(utterance, settings: settings, skips: skips)
        }
    }

    private func read(_ utterance: SpeechQueue.Utterance, settings: SpeechSettings, skips: Int) async {
        let engine = SpeechEngines.make(settings)
        let options = VoiceOptions(voice: settings.voice, rate: settings.rate, volume: settings.volume)
        let audio: SpeechAudio?
        do {
            audio = try await engine.speak(utterance.text, language: SpeechLanguage.of(utterance.text), options: options)
        } catch {
            problem("speech (\(engine.name)): \(error.description)")
            return
        }
        spoke()
        guard let audio else { return }
        // Resampled (and its volume set) a chunk at a time as the ring takes it.
        let resampler = LinearResampler(audio, to: sink.sampleRate, gain: Float(settings.volume) / 100)
        let rate = Double(sink.sampleRate)
        state.withLock { $0.busyUntil = now + Double(resampler.count) / rate }
        await play(resampler, skips: skips)
        state.withLock { $0.busyUntil = now }
    }

    /// Writes at most `writeAhead` seconds ahead of playback, until done, skipped or paused.
    private func play(_ resampler: LinearResampler, skips: Int) async {
        var resampler = resampler
        let ahead = Int(Self.writeAhead * Double(sink.sampleRate))
        var pending: ArraySlice<Float> = []
        while !(pending.isEmpty && resampler.isDone), !Task.isCancelled {
            let interrupted = state.withLock { $0.skips != skips || $0.paused }
            if interrupted {
                sink.discardQueued()
                return
            }
            let room = ahead - sink.queuedFrames()
            if room > 0 {
                if pending.isEmpty { pending = resampler.next(room)[...] }
                pending = pending.dropFirst(sink.write(pending.prefix(room)))
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Each problem is shown on the bar; in the log the same problem again within a minute is
    /// not repeated.
    private func problem(_ text: String) {
        state.withLock { $0.showing = text }
        report(SpeechProblem(text: text, logged: problemLog.admit(text) != nil))
    }

    /// An item went to the engine fine: a problem shown before is over.
    private func spoke() {
        let wasShowing = state.withLock { state -> Bool in
            defer { state.showing = nil }
            return state.showing != nil
        }
        if wasShowing { report(nil) }
    }
}

/// An item that could not be spoken: the line the bar's status shows, and whether the log
/// gets it too (the same line is logged at most once a minute).
public struct SpeechProblem: Sendable, Equatable {
    public var text: String
    public var logged: Bool
}

/// What `serve` hands to speech: its settings and hotkeys, decoded from stdin once
/// (`StdinMessage`), and the rows the bar shows. With speech off nothing runs and no engine is loaded; the reader is made when it
/// is turned on and stopped when it is turned off.
public final class SpeechHook: Sendable {
    private let sink: (any SpeechAudioSink)?
    private let log: Logger
    private let changed: @Sendable () -> Void
    private let reader = Mutex<SpeechReader?>(nil)
    private let shownProblem = Mutex<String?>(nil)
    private let latestControl = Mutex(SpeechControl())

    /// `changed`: the problem to show on the bar changed (the frame loop looks at `problem`).
    public init(sink: (any SpeechAudioSink)?, log: Logger, changed: @escaping @Sendable () -> Void = {}) {
        self.sink = sink
        self.log = log
        self.changed = changed
    }

    /// Why the last item could not be read, for the bar's status line (nil: reading works, or is off).
    public var problem: String? { shownProblem.withLock { $0 } }

    private func show(_ problem: String?) {
        let different = shownProblem.withLock { shown -> Bool in
            defer { shown = problem }
            return shown != problem
        }
        if different { changed() }
    }

    /// The hotkeys' newest state (`{"speech":{…}}`): kept while speech is off, so a reader made
    /// later starts paused if reading was paused.
    public var hotkeys: SpeechControl { latestControl.withLock { $0 } }

    /// `{"speech":{…}}`, decoded: a skip or a pause.
    public func control(_ control: SpeechControl) {
        latestControl.withLock { $0 = control }
        reader.withLock { $0 }?.control(control)
    }

    /// The speech rows of a `{"settings":{…}}` line, decoded: turns speech on or off and sets it.
    public func configure(_ settings: SpeechSettings) {
        guard settings.enabled, let sink else {
            if let old = reader.withLock({ reader -> SpeechReader? in defer { reader = nil }; return reader }) {
                old.stop()
                show(nil)
                log.info("speech off")
            }
            if settings.enabled { log.error("speech: this pool has no audio ring (an older shim)") }
            return
        }
        let control = hotkeys
        let made = reader.withLock { reader -> Bool in
            if let reader {
                reader.update(settings)
                return false
            }
            let log = log
            let made = SpeechReader(settings: settings, sink: sink) { [weak self] problem in
                if let problem, problem.logged { log.error("\(problem.text)") }
                self?.show(problem?.text)
            }
            made.control(control)
            reader = made
            return true
        }
        if made { log.info("speech on: \(settings.engine.rawValue)") }
    }

    /// The control page's skip (nothing while speech is off).
    public func skip() {
        reader.withLock { $0 }?.skip()
    }

    /// The control page's pause (true), resume (false) or toggle (nil); whether speech is paused
    /// after (false while speech is off).
    public func pause(_ paused: Bool?) -> Bool {
        reader.withLock { $0 }?.pause(paused) ?? false
    }

    /// An event of the feed, and the row as the bar shows it (nil: hidden or not a row).
    public func heard(_ event: FeedEvent, shown: ChatLine?) {
        guard let reader = reader.withLock({ $0 }) else { return }
        switch event {
        case .comment, .gift:
            if let shown { reader.add(shown) }
        case .delete(let id):
            reader.remove(id: id)
        case .deleteUser(let user):
            reader.remove(user: user)
        case .clear:
            reader.removeAll()
        default:
            break
        }
    }
}
