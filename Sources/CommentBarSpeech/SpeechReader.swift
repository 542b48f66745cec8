// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Logging
import Synchronization

/// Reads rows aloud while speech is on, and rings the first-time sound (issue 29) for a viewer's
/// first comment ever while that is on: the rules make each row's sentence, the queue keeps
/// reading within `speech_max_delay` and chimes in order with it, the engine synthesizes on its
/// own task (never the frame loop) and the PCM goes to the sink a little ahead of playback, so a
/// skip or a pause takes effect at once. A skip or a pause cuts a reading, never a chime: a
/// chime plays to its end, after the reading it waited for.
public final class SpeechReader: Sendable {
    struct State {
        var settings: SpeechSettings
        var queue: SpeechQueue
        /// The first-time sound (nil: off).
        var chime: SpeechAudio?
        var busyUntil: Double = 0
        /// What is being played now (nil: nothing).
        var playing: SpeechQueue.Item.Kind?
        /// Bumped by every skip (a hotkey's or the control page's): the reading playing stops.
        var skips = 0
        /// The shim's skip counter as last seen: a new value is one press of the hotkey.
        var hotkeySkips = 0
        var paused = false
        /// The problem the bar shows now (nil: none).
        var showing: String?

        /// A skip or a pause cuts what plays now only when it is a reading.
        var readingNow: Bool { playing == .speech }
    }

    /// How far ahead of playback PCM is written (seconds).
    static let writeAhead = 0.3
    private let state: Mutex<State>
    private let sink: any SpeechAudioSink
    private let engines: @Sendable (SpeechSettings) -> any SpeechEngine
    private let report: @Sendable (SpeechProblem?) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let wake: AsyncStream<Void>.Continuation
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// The same problem is logged at most once a minute (the bar shows it every time).
    private let problemLog = LogThrottle(interval: .seconds(60), maxKeys: 32)

    /// `chime`: the first-time sound, if it is on. `engines`: what speaks a reading (the tests
    /// give their own). `report`: an item could not be spoken (a line for the bar's status, and
    /// for the log when `logged`), or nil: an item was spoken again after a problem, the status
    /// line goes.
    public init(settings: SpeechSettings, sink: any SpeechAudioSink, chime: SpeechAudio? = nil,
                engines: @escaping @Sendable (SpeechSettings) -> any SpeechEngine = SpeechEngines.make,
                report: @escaping @Sendable (SpeechProblem?) -> Void) {
        var queue = SpeechQueue(maxDelay: Double(settings.maxDelay))
        queue.chimeSeconds = chime?.seconds ?? 0
        state = Mutex(State(settings: settings, queue: queue, chime: chime))
        self.sink = sink
        self.engines = engines
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
        (clock.now - start).inSeconds
    }

    /// New settings; with speech turned off, what waits to be read goes and a reading stops
    /// (chimes stay).
    public func update(_ settings: SpeechSettings) {
        let cut = state.withLock { state -> Bool in
            let silenced = state.settings.enabled && !settings.enabled
            state.settings = settings
            state.queue.maxDelay = Double(settings.maxDelay)
            guard silenced else { return false }
            state.queue.removeAll(.speech)
            state.skips &+= 1
            return state.readingNow
        }
        if cut { sink.discardQueued() }
    }

    /// The first-time sound changed (nil: off; what waits to ring goes).
    public func setChime(_ chime: SpeechAudio?) {
        state.withLock { state in
            state.chime = chime
            state.queue.chimeSeconds = chime?.seconds ?? 0
            if chime == nil { state.queue.removeAll(.chime) }
        }
    }

    /// A row the bar shows (already through its filters): its reading while speech is on, and
    /// first its chime when it is a viewer's first comment ever and the sound is on. History
    /// never chimes (nor is read: `ServeSession` hands no history row).
    public func add(_ line: ChatLine) {
        let (rules, speaking, sounding, cast) = state.withLock {
            ($0.settings.enabled ? ReadingRules($0.settings) : nil, $0.settings.enabled, $0.chime != nil, $0.settings.voices)
        }
        let chimes = sounding && !line.isHistory && line.marks.contains { $0.kind == .firstTime }
        let text = speaking ? rules?.sentence(for: line) : nil
        guard chimes || text != nil else { return }
        let user = (line.login ?? line.user).lowercased()
        sink.markArrival()
        let time = now
        state.withLock {
            if chimes {
                $0.queue.add(SpeechQueue.Item(id: line.id, user: user, text: "", arrived: time, kind: .chime),
                             now: time, busyUntil: $0.busyUntil)
            }
            if let text {
                let voice = RequestedVoice(own: line.voice, pick: cast.pick(for: line))
                $0.queue.add(SpeechQueue.Item(id: line.id, user: user, text: text, arrived: time, voice: voice), now: time,
                             busyUntil: $0.busyUntil)
            }
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
        let cut = state.withLock { state -> Bool in
            let skip = control.skip != state.hotkeySkips
            state.hotkeySkips = control.skip
            if skip { state.skips &+= 1 }
            state.paused = control.paused
            return (skip || control.paused) && state.readingNow
        }
        if cut { sink.discardQueued() }
        wake.yield()
    }

    /// Cuts short what is being read (the control page's skip); a chime plays on.
    public func skip() {
        let cut = state.withLock { state -> Bool in
            state.skips &+= 1
            return state.readingNow
        }
        if cut { sink.discardQueued() }
        wake.yield()
    }

    /// Pauses (true) or resumes (false) reading, or toggles it (nil); the state after.
    public func pause(_ paused: Bool?) -> Bool {
        let (now, cut) = state.withLock { state -> (Bool, Bool) in
            state.paused = paused ?? !state.paused
            return (state.paused, state.paused && state.readingNow)
        }
        if cut { sink.discardQueued() }
        wake.yield()
        return now
    }

    private func readWaiting() async {
        while !Task.isCancelled {
            let time = now
            let next = state.withLock { state -> (SpeechQueue.Utterance, SpeechSettings, Int, SpeechAudio?)? in
                guard let utterance = state.queue.next(now: time, paused: state.paused) else { return nil }
                state.playing = utterance.item.kind
                return (utterance, state.settings, state.skips, state.chime)
            }
            guard let (utterance, settings, skips, chime) = next else { return }
            switch utterance.item.kind {
            case .speech: await read(utterance, settings: settings, skips: skips)
            case .chime: if let chime { await ring(chime) }
            }
            state.withLock { $0.playing = nil }
        }
    }

    private func read(_ utterance: SpeechQueue.Utterance, settings: SpeechSettings, skips: Int) async {
        let engine = engines(settings)
        let language = SpeechLanguage.of(utterance.text)
        let options = await utterance.item.voice.options(
            VoiceOptions(voice: settings.voice, rate: settings.rate, volume: settings.volume), engine: engine, language: language)
        let audio: SpeechAudio?
        do {
            audio = try await engine.speak(utterance.text, language: language, options: options)
        } catch {
            problem("speech (\(engine.name)): \(error.description)")
            return
        }
        spoke()
        guard let audio else { return }
        // Resampled (and its volume set) a chunk at a time as the ring takes it.
        await play(LinearResampler(audio, to: sink.sampleRate, gain: Float(settings.volume) / 100), skips: skips)
    }

    /// The first-time sound at its own level: only stopping the reader cuts it. It is over when
    /// the ring has played it (a skip of the reading after it must not discard its end).
    private func ring(_ chime: SpeechAudio) async {
        await play(LinearResampler(chime, to: sink.sampleRate), skips: nil)
        let drained = clock.now + .seconds(Self.writeAhead * 2)
        while sink.queuedFrames() > 0, clock.now < drained, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Writes at most `writeAhead` seconds ahead of playback, until done, or (a reading, whose
    /// `skips` is given) skipped or paused.
    private func play(_ resampler: LinearResampler, skips: Int?) async {
        var resampler = resampler
        let rate = Double(sink.sampleRate)
        state.withLock { $0.busyUntil = now + Double(resampler.count) / rate }
        defer { state.withLock { $0.busyUntil = now } }
        let ahead = Int(Self.writeAhead * Double(sink.sampleRate))
        var pending: ArraySlice<Float> = []
        while !(pending.isEmpty && resampler.isDone), !Task.isCancelled {
            if let skips, state.withLock({ $0.skips != skips || $0.paused }) {
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
