// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Logging
import Synchronization

/// What `serve` hands to speech and to the first-time sound: their settings and the reading
/// hotkeys, decoded from stdin once (`StdinMessage`), and the rows the bar shows. With speech
/// and the sound both off nothing runs and no engine is loaded: the reader is made when one of
/// them is turned on and stopped when both are off. With only the sound on, the reader's queue
/// carries chimes only (no engine is ever asked for anything).
public final class SpeechHook: Sendable {
    private let sink: (any SpeechAudioSink)?
    private let log: Logger
    /// Why the last item could not be read (the reader logs its own problems, at its own pace).
    private let speechProblem: ProblemReporter
    /// Why the first-time sound cannot play (logged once per distinct reason).
    private let soundProblem: ProblemReporter
    private let engines: @Sendable (SpeechSettings) -> any SpeechEngine
    private let state = Mutex(State())

    struct State {
        var reader: SpeechReader?
        /// Reading is on (the reader may also run for the sound alone).
        var speaking = false
        /// The hotkeys' newest state (nil: no line yet).
        var control: SpeechControl?
        /// The first-time sound as last loaded: the setting, its audio, why it cannot play.
        var sound = FirstTimeSound.off
        var soundAudio: SpeechAudio?
    }

    /// What a hotkey line did, for the event API (`speech` events).
    public enum Action: String, Sendable, Equatable {
        case skip, pause, resume
    }

    /// `changed`: the problem to show on the bar changed (the frame loop looks at `problem`).
    /// `engines`: what speaks a reading (the tests give their own).
    public init(sink: (any SpeechAudioSink)?, log: Logger,
                engines: @escaping @Sendable (SpeechSettings) -> any SpeechEngine = SpeechEngines.make,
                changed: @escaping @Sendable () -> Void = {}) {
        self.sink = sink
        self.log = log
        self.engines = engines
        speechProblem = ProblemReporter(log: nil, changed: changed)
        soundProblem = ProblemReporter(log: log, changed: changed)
    }

    /// Why the last item could not be read, or why the first-time sound cannot play, for the
    /// bar's status line (nil: all works, or is off).
    public var problem: String? { speechProblem.current ?? soundProblem.current }

    /// The hotkeys' newest state (`{"speech":{…}}`): kept while speech is off, so a reader made
    /// later starts paused if reading was paused.
    public var hotkeys: SpeechControl { state.withLock { $0.control ?? SpeechControl() } }

    /// `{"speech":{…}}`, decoded: a skip or a pause. Returns what it did, for the event API: a
    /// skip counter that went up, a pause that changed (the first line a renderer gets is where
    /// the counters stand, not a press).
    @discardableResult
    public func control(_ control: SpeechControl) -> [Action] {
        let (previous, reader) = state.withLock { state -> (SpeechControl?, SpeechReader?) in
            defer { state.control = control }
            return (state.control, state.reader)
        }
        reader?.control(control)
        guard let previous else { return [] }
        var actions: [Action] = []
        if control.skip > previous.skip { actions.append(.skip) }
        if control.paused != previous.paused { actions.append(control.paused ? .pause : .resume) }
        return actions
    }

    /// The speech rows and `first_time_sound` of a `{"settings":{…}}` line, decoded: turns
    /// reading and the sound on or off and sets them. A sound file is read here, once, when the
    /// setting names another one.
    public func configure(_ settings: SpeechSettings) {
        let chime = loadSound(FirstTimeSound(setting: settings.firstTimeSound))
        let wanted = settings.enabled || chime != nil
        let (old, wasSpeaking) = state.withLock { state -> (SpeechReader?, Bool) in
            let wasSpeaking = state.speaking
            state.speaking = settings.enabled && sink != nil
            guard wanted, let sink else {
                defer { state.reader = nil }
                return (state.reader, wasSpeaking)
            }
            if let reader = state.reader {
                reader.update(settings)
                reader.setChime(chime)
                return (nil, wasSpeaking)
            }
            let log = log
            let made = SpeechReader(settings: settings, sink: sink, chime: chime, engines: engines) { [weak self] problem in
                if let problem, problem.logged { log.error("\(problem.text)") }
                self?.speechProblem.report(problem?.text)
            }
            made.control(state.control ?? SpeechControl())
            state.reader = made
            return (nil, wasSpeaking)
        }
        old?.stop()
        if wasSpeaking && !settings.enabled {
            speechProblem.report(nil)
            log.info("speech off")
        }
        if settings.enabled && sink != nil && !wasSpeaking { log.info("speech on: \(settings.engine.rawValue)") }
        if wanted && sink == nil { log.error("speech: this pool has no audio ring (an older shim)") }
    }

    /// The first-time sound for `setting`: loaded when the setting changed (one log line, or one
    /// problem line for the bar and the log), else as loaded before.
    private func loadSound(_ setting: FirstTimeSound) -> SpeechAudio? {
        let (known, audio) = state.withLock { ($0.sound == setting, $0.soundAudio) }
        if known { return audio }
        let loaded: SpeechAudio?
        var problem: String?
        do {
            loaded = try setting.load(rate: sink?.sampleRate ?? 48_000)
            if setting != .off || audio != nil { log.info("\(setting.describe(loaded))") }
        } catch {
            loaded = nil
            problem = error.description
        }
        state.withLock { ($0.sound, $0.soundAudio) = (setting, loaded) }
        // A setting tried again (changed and back) is read again, and its problem said again.
        soundProblem.forgetLogged()
        soundProblem.report(problem)
        return loaded
    }

    /// The control page's skip (nothing while speech is off); a chime plays on.
    public func skip() {
        state.withLock { $0.reader }?.skip()
    }

    /// The control page's pause (true), resume (false) or toggle (nil); whether reading is paused
    /// after (false while neither speech nor the sound is on).
    public func pause(_ paused: Bool?) -> Bool {
        state.withLock { $0.reader }?.pause(paused) ?? false
    }

    /// An event of the feed, and the row as the bar shows it (nil: hidden, history, or not a row).
    public func heard(_ event: FeedEvent, shown: ChatLine?) {
        guard let reader = state.withLock({ $0.reader }) else { return }
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
