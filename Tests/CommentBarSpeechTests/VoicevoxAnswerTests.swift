// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarSpeech
import Foundation
import Synchronization
import XCTest

/// VOICEVOX against a loopback engine that answers as a hostile one would: too large (said or
/// streamed), too long, or dripping.
final class VoicevoxAnswerTests: XCTestCase {
    func speak(_ fake: FakeVoicevox, timeLimit: Duration = .seconds(5)) async -> Result<SpeechAudio?, SpeechError> {
        let engine = VoicevoxEngine(server: "127.0.0.1:\(fake.port)", timeLimit: timeLimit)
        do {
            return .success(try await engine.speak("こんにちは", language: .japanese, options: VoiceOptions(voice: "3")))
        } catch {
            return .failure(error)
        }
    }

    func failure(_ result: Result<SpeechAudio?, SpeechError>) -> String {
        if case .failure(let error) = result { return error.description }
        return "(it spoke)"
    }

    /// The peak resident memory of this process, in bytes.
    func peakResident() -> Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    func testAGoodAnswerIsSpoken() async throws {
        let wav = WAVFile.encode(SpeechAudio(samples: [Float](repeating: 0.5, count: 24000), sampleRate: 24000))
        let fake = try await FakeVoicevox(.wav(wav))
        let result = await speak(fake)
        await fake.stop()
        let audio = try result.get()
        XCTAssertEqual(audio?.sampleRate, 24000)
        XCTAssertEqual(audio?.samples.count, 24000)
    }

    /// 64 MiB, said in its Content-Length (refused before the body is read) or streamed without
    /// one (refused at the cap, while it streams): the client stops taking it, memory stays bounded.
    func refuse64MiB(declared: Bool) async throws {
        let before = peakResident()
        let fake = try await FakeVoicevox(.huge(total: 64 << 20, declared: declared))
        let result = await speak(fake)
        try await Task.sleep(for: .milliseconds(300))
        await fake.stop()
        XCTAssertEqual(failure(result), "VOICEVOX /synthesis answered more than 5 MiB: refused")
        let sent = fake.counts.bodyBytesSent.withLock { $0 }
        XCTAssertLessThan(sent, 32 << 20, "the client stopped taking the body: \(sent) bytes")
        let grown = peakResident() - before
        print("64 MiB answer (\(declared ? "Content-Length" : "chunked")): \(sent >> 10) KiB taken by the client "
              + "(with the sockets' buffers), peak RSS +\(max(grown, 0) >> 20) MiB")
        XCTAssertLessThan(grown, 48 << 20)
    }

    func testA64MiBAnswerWithItsLengthIsRefusedUnread() async throws {
        try await refuse64MiB(declared: true)
    }

    func testA64MiBStreamedAnswerIsRefusedAtTheCap() async throws {
        try await refuse64MiB(declared: false)
    }

    /// Under the byte cap but over 60 s (8 kHz): refused before a sample is decoded.
    func testAnAnswerLongerThanAMinuteIsRefused() async throws {
        let header = FakeVoicevox.wavHeader(rate: 8000, dataBytes: 61 * 8000 * 2)
        let fake = try await FakeVoicevox(.wav(header + [UInt8](repeating: 0, count: 61 * 8000 * 2)))
        let result = await speak(fake)
        await fake.stop()
        XCTAssertEqual(failure(result), "VOICEVOX at 127.0.0.1:\(fake.port): WAV: 61 s of audio (more than 60 s): refused")
    }

    /// Headers at once, then a byte every 100 ms: the item's one deadline covers the body.
    func testADrippingAnswerCostsOneDeadline() async throws {
        let fake = try await FakeVoicevox(.drip(interval: .milliseconds(100)))
        let clock = ContinuousClock()
        let started = clock.now
        let result = await speak(fake, timeLimit: .seconds(1))
        let took = clock.now - started
        await fake.stop()
        XCTAssertEqual(failure(result), "VOICEVOX at 127.0.0.1:\(fake.port) took more than 1 s: skipped")
        XCTAssertLessThan(took, .seconds(4), "the deadline held: \(took)")
    }

    /// An engine that never answers costs the item its one deadline, said one way: the HTTP
    /// client's own timeouts are later, so they never race it with another message.
    func testAStalledEngineIsOneDeadlineSaidOneWay() async throws {
        let fake = try await FakeVoicevox(.stall)
        let result = await speak(fake)
        await fake.stop()
        XCTAssertEqual(failure(result), "VOICEVOX at 127.0.0.1:\(fake.port) took more than 5 s: skipped")
        XCTAssertGreaterThan(VoicevoxEngine.backstop.nanoseconds, Int64(5_000_000_000))
    }

    /// Read aloud, two hostile answers make one problem for the log (the bar shows each).
    func testARefusedAnswerIsOneLogLine() async throws {
        let fake = try await FakeVoicevox(.huge(total: 64 << 20, declared: true))
        var settings = SpeechSettings()
        settings.enabled = true
        settings.engine = .voicevox
        settings.server = "127.0.0.1:\(fake.port)"
        let problems = Mutex<[SpeechProblem]>([])
        let reader = SpeechReader(settings: settings, sink: SilentSink()) { problem in
            if let problem { problems.withLock { $0.append(problem) } }
        }
        for id in ["1", "2"] { reader.add(ChatLine(id: id, user: "viewer", text: "こんにちは\(id)")) }
        let deadline = ContinuousClock.now + .seconds(20)
        while problems.withLock({ $0.count }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        reader.stop()
        await fake.stop()
        XCTAssertEqual(fake.counts.requests.withLock { $0 }, 2, "both items were tried")
        let refused = "speech (voicevox): VOICEVOX /synthesis answered more than 5 MiB: refused"
        XCTAssertEqual(problems.withLock { $0 }, [SpeechProblem(text: refused, logged: true),
                                                  SpeechProblem(text: refused, logged: false)])
    }
}

/// PCM that goes nowhere, as fast as it comes.
final class SilentSink: SpeechAudioSink {
    var sampleRate: Int { 48000 }
    func queuedFrames() -> Int { 0 }
    func write(_ samples: ArraySlice<Float>) -> Int { samples.count }
    func discardQueued() {}
}
