// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarSpeech
import CommentBarSupport
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import CommentBarTestSupport
import XCTest

/// The first-time sound (issue 29): a chime (or the streamer's WAV/Ogg file) for a viewer's
/// first comment ever, through speech's queue and audio sink, with speech on or off.
final class FirstTimeSoundTests: XCTestCase {
    static let rate = 48_000
    /// What the fake engine reads: a level the chime (peak 0.3) never reaches.
    static let speechLevel: Float = 0.5

    static func row(_ id: String, firstTime: Bool = false, history: Bool = false) -> ChatLine {
        var line = ChatLine(id: id, user: "viewer\(id)", text: "hello \(id)", isHistory: history)
        if firstTime { line.marks = [RowMark(.firstTime, "初見")] }
        return line
    }

    static func settings(speech: Bool, sound: String) -> SpeechSettings {
        var settings = SpeechSettings()
        settings.enabled = speech
        settings.firstTimeSound = sound
        settings.readNames = false
        return settings
    }

    private func hook(_ sink: PlayingSink, engine: FakeEngine = FakeEngine(), log: Logger = Logger(label: "test"))
        -> SpeechHook {
        SpeechHook(sink: sink, log: log, engines: { _ in engine })
    }

    private func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(), Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// Everything written has been played, and nothing more comes for a while.
    private func settle(_ sink: PlayingSink) async throws {
        var last = -1
        while sink.heard.count != last || !sink.idle {
            last = sink.heard.count
            try await Task.sleep(for: .milliseconds(400))
        }
    }

    func testAFirstTimeRowMakesOneChimeWithSpeechOff() async throws {
        let sink = PlayingSink(rate: Self.rate)
        let engine = FakeEngine()
        let hook = hook(sink, engine: engine)
        hook.configure(Self.settings(speech: false, sound: "chime"))
        let row = Self.row("1", firstTime: true)
        hook.heard(.comment(row), shown: row)
        try await settle(sink)
        XCTAssertEqual(sink.heard, Chime.make(rate: Self.rate).samples, "the chime, once, whole")
        XCTAssertEqual(engine.texts, [], "speech off: no engine is asked for anything")
        XCTAssertNil(hook.problem)
    }

    func testHistoryHiddenAndOrdinaryRowsNeverChime() async throws {
        let sink = PlayingSink(rate: Self.rate)
        let hook = hook(sink)
        hook.configure(Self.settings(speech: false, sound: "chime"))
        let history = Self.row("h", firstTime: true, history: true)
        hook.heard(.comment(history), shown: nil)  // as the session hands history: no row to read
        hook.heard(.comment(history), shown: history)  // and even if it were handed one
        hook.heard(.comment(Self.row("x", firstTime: true)), shown: nil)  // hidden by the filters
        hook.heard(.comment(Self.row("o")), shown: Self.row("o"))  // not a first comment
        try await Task.sleep(for: .milliseconds(500))
        XCTAssertTrue(sink.heard.isEmpty)
        XCTAssertEqual(sink.writes, 0)
    }

    /// A chime for a first comment that comes while another row is read waits for that reading,
    /// plays whole, and a skip pressed while it plays skips nothing (the next reading is whole too).
    func testAChimeBehindAReadingIsNotCutAndASkipDoesNotSkipIt() async throws {
        let sink = PlayingSink(rate: Self.rate)
        let engine = FakeEngine(seconds: ["hello a": 0.6, "hello b": 0.3])
        let hook = hook(sink, engine: engine)
        hook.configure(Self.settings(speech: true, sound: "chime"))
        hook.control(SpeechControl(skip: 0))
        let first = Self.row("a")
        hook.heard(.comment(first), shown: first)
        try await waitUntil { sink.heard.contains(Self.speechLevel) }
        let newcomer = Self.row("b", firstTime: true)
        hook.heard(.comment(newcomer), shown: newcomer)
        try await waitUntil { sink.heard.contains { $0 != 0 && $0 != Self.speechLevel } }
        XCTAssertEqual(hook.control(SpeechControl(skip: 1)), [.skip], "a hotkey press, reported for the event API")
        try await settle(sink)
        let chime = Chime.make(rate: Self.rate).samples
        let reading = { (seconds: Double) in [Float](repeating: Self.speechLevel, count: Int(seconds * Double(Self.rate))) }
        XCTAssertEqual(sink.heard.count, reading(0.6).count + chime.count + reading(0.3).count)
        XCTAssertTrue(sink.heard == reading(0.6) + chime + reading(0.3), "the reading, the chime, the newcomer's reading: all whole")
        XCTAssertEqual(engine.texts, ["hello a", "hello b"])
    }

    /// A skip during a reading cuts that reading only: the chime queued behind it plays whole.
    func testASkippedReadingDoesNotTakeTheChimeWithIt() async throws {
        let sink = PlayingSink(rate: Self.rate)
        let hook = hook(sink, engine: FakeEngine(seconds: ["hello a": 3, "hello b": 0.2]))
        hook.configure(Self.settings(speech: true, sound: "chime"))
        let first = Self.row("a")
        hook.heard(.comment(first), shown: first)
        try await waitUntil { sink.heard.contains(Self.speechLevel) }
        let newcomer = Self.row("b", firstTime: true)
        hook.heard(.comment(newcomer), shown: newcomer)
        hook.skip()
        try await settle(sink)
        let chime = Chime.make(rate: Self.rate).samples
        guard let start = sink.heard.firstIndex(where: { $0 != Self.speechLevel }) else { return XCTFail("no chime") }
        XCTAssertLessThan(start, 3 * Self.rate, "the long reading was cut")
        XCTAssertTrue(Array(sink.heard[start..<min(sink.heard.count, start + chime.count)]) == chime, "the chime is whole")
        XCTAssertEqual(sink.heard.count - start - chime.count, Int(0.2 * Double(Self.rate)), "then the newcomer's reading")
    }

    func testABadFileIsOneLineAndNeverACrash() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-time-sound-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let missing = folder.appendingPathComponent("missing.ogg").path
        let text = try file("notes.ogg", Array("just some text".utf8))
        let brokenOgg = try file("broken.ogg", Array("OggS".utf8) + [UInt8](repeating: 7, count: 400))
        let long = try file("long.wav", WAVFile.encode(SpeechAudio(samples: [Float](repeating: 0.1, count: 8000 * 12),
                                                                   sampleRate: 8000)))
        let huge = try file("huge.wav", [UInt8](repeating: 0, count: FirstTimeSound.maxFileBytes + 1))
        let expected = [
            (missing, "first-time sound: \(missing): no such file"),
            (text, "first-time sound: \(text): not a WAV or Ogg Vorbis file"),
            (brokenOgg, "first-time sound: \(brokenOgg): not Ogg Vorbis audio (OV_ENOTVORBIS)"),
            (long, "first-time sound: \(long): 12 s long; at most 10 s"),
            (huge, "first-time sound: \(huge): larger than 4 MiB"),
            (folder.path, "first-time sound: \(folder.path): not a regular file"),
        ]
        let lines = CapturedLog()
        let sink = PlayingSink(rate: Self.rate)
        let hook = hook(sink, log: lines.logger)
        for (path, message) in expected {
            hook.configure(Self.settings(speech: false, sound: path))
            XCTAssertEqual(hook.problem, message)
            XCTAssertEqual(lines.messages(at: .error).last, message)
            let row = Self.row(path, firstTime: true)
            hook.heard(.comment(row), shown: row)
        }
        let errors = lines.messages(at: .error).count
        hook.configure(Self.settings(speech: false, sound: folder.path))
        XCTAssertEqual(lines.messages(at: .error).count, errors, "the same setting again: not read again, not logged again")
        hook.configure(Self.settings(speech: false, sound: "off"))
        XCTAssertNil(hook.problem, "off: the line goes")
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertTrue(sink.heard.isEmpty, "nothing played")
    }

    /// The streamer's Ogg Vorbis file (Sounds/bell.ogg, made for this test with ffmpeg's libvorbis:
    /// `-f lavfi -i sine=frequency=660:sample_rate=22050:duration=0.5 -ac 2 -q:a 0`) and a WAV:
    /// decoded once, mono, resampled to the ring's rate as it plays.
    func testAnOggAndAWavFileArePlayed() async throws {
        let bell = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Sounds/bell.ogg").path
        let decoded = try XCTUnwrap(FirstTimeSound(setting: bell).load(rate: Self.rate))
        XCTAssertEqual(decoded.sampleRate, 22_050)
        XCTAssertEqual(Double(decoded.samples.count), 0.5 * 22_050, accuracy: 64)
        // ffmpeg's sine is at 1/8 of full scale.
        XCTAssertEqual(Double(decoded.samples.map(abs).max() ?? 0), 0.125, accuracy: 0.05, "the tone, not silence")

        let sink = PlayingSink(rate: Self.rate)
        let lines = CapturedLog()
        let hook = hook(sink, log: lines.logger)
        hook.configure(Self.settings(speech: false, sound: bell))
        XCTAssertNil(hook.problem)
        XCTAssertTrue(lines.messages(at: .info).contains("first-time sound: \(bell) (0.5 s)"), "\(lines.messages(at: .info))")
        let row = Self.row("1", firstTime: true)
        hook.heard(.comment(row), shown: row)
        try await settle(sink)
        XCTAssertEqual(sink.heard, LinearResampler.resample(decoded, to: Self.rate).samples)

        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("first-time-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let tone = SpeechAudio(samples: (0..<4800).map { Float(sin(Double($0) * 0.1) * 0.5) }, sampleRate: 48_000)
        try Data(WAVFile.encode(tone)).write(to: wav)
        let read = try XCTUnwrap(FirstTimeSound(setting: wav.path).load(rate: Self.rate))
        XCTAssertEqual(read.samples.count, 4800)
        XCTAssertEqual(FirstTimeSound(setting: " off "), .off)
        XCTAssertEqual(FirstTimeSound(setting: ""), .off)
        XCTAssertEqual(FirstTimeSound(setting: "chime"), .chime)
    }

    func testTheChimeIsShortSoftAndEndsInSilence() {
        for rate in [44_100, 48_000] {
            let chime = Chime.make(rate: rate)
            XCTAssertEqual(chime.sampleRate, rate)
            XCTAssertEqual(chime.seconds, Chime.seconds, accuracy: 0.001)
            XCTAssertEqual(chime.samples.map(abs).max() ?? 0, Chime.peak, accuracy: 0.0001)
            XCTAssertLessThan(abs(chime.samples.last ?? 1), 0.001)
            XCTAssertLessThan(abs(chime.samples.first ?? 1), 0.001, "a soft attack: no click")
        }
    }
}

/// A sink that plays in real time, as the shim drains the ring: what is written waits in the
/// ring and is "heard" as time passes; a discard drops what waits, unheard.
final class PlayingSink: SpeechAudioSink, Sendable {
    let sampleRate: Int
    private let state = Mutex(Ring())

    struct Ring {
        var heard: [Float] = []
        var waiting: [Float] = []
        var last = ContinuousClock.now
        var writes = 0
    }

    init(rate: Int) { sampleRate = rate }

    private func advance(_ ring: inout Ring) {
        let now = ContinuousClock.now
        let elapsed = now - ring.last
        let frames = Int(elapsed.inSeconds * Double(sampleRate))
        guard frames > 0 else { return }
        ring.last = now
        let played = min(frames, ring.waiting.count)
        ring.heard += ring.waiting.prefix(played)
        ring.waiting.removeFirst(played)
    }

    var heard: [Float] { state.withLock { advance(&$0); return $0.heard } }
    var idle: Bool { state.withLock { advance(&$0); return $0.waiting.isEmpty } }
    var writes: Int { state.withLock { $0.writes } }

    func queuedFrames() -> Int { state.withLock { advance(&$0); return $0.waiting.count } }

    func write(_ samples: ArraySlice<Float>) -> Int {
        state.withLock {
            advance(&$0)
            // An empty ring starts playing from now.
            if $0.waiting.isEmpty { $0.last = ContinuousClock.now }
            $0.waiting += samples
            $0.writes += 1
            return samples.count
        }
    }

    func discardQueued() { state.withLock { advance(&$0); $0.waiting.removeAll() } }
}

/// An engine that "reads" a text as a constant level for a set time (0.3 s unless told).
final class FakeEngine: SpeechEngine, Sendable {
    let name = "fake"
    private let seconds: [String: Double]
    private let asked = Mutex<[String]>([])

    init(seconds: [String: Double] = [:]) { self.seconds = seconds }

    var texts: [String] { asked.withLock { $0 } }

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError) -> SpeechAudio? {
        asked.withLock { $0.append(text) }
        let count = Int((seconds[text] ?? 0.3) * Double(FirstTimeSoundTests.rate))
        return SpeechAudio(samples: [Float](repeating: FirstTimeSoundTests.speechLevel, count: count),
                           sampleRate: FirstTimeSoundTests.rate)
    }
}
