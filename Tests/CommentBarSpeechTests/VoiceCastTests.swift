// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarSpeech
import Foundation
import Synchronization
import XCTest

/// A voice per viewer or per platform (`speech_voices`): which voice each row asks for, what each
/// engine makes of it, and, through the reader and the real eSpeak NG, two regulars heard in two
/// voices while one viewer keeps theirs on every stream.
final class VoiceCastTests: XCTestCase {
    func row(_ user: String, platform: String? = nil, own: String? = nil, id: String = UUID().uuidString) -> ChatLine {
        var line = ChatLine(id: id, user: user.capitalized, login: user, text: "hello there")
        line.platform = platform
        line.voice = own
        return line
    }

    func testPicksAreStablePerViewerAndPerPlatform() {
        XCTAssertNil(VoiceCast.one.pick(for: row("alice")))
        XCTAssertEqual(VoiceCast.perViewer.pick(for: row("alice", platform: "twitch")),
                       VoiceCast.perViewer.pick(for: ChatLine(id: "x", user: "ALICE", text: "hi")),
                       "a viewer's voice follows their login, whatever the stream or the case of their name")
        XCTAssertNotEqual(VoiceCast.perViewer.pick(for: row("alice")), VoiceCast.perViewer.pick(for: row("bob")))
        XCTAssertEqual(VoiceCast.perPlatform.pick(for: row("alice", platform: "youtube")),
                       VoiceCast.perPlatform.pick(for: row("bob", platform: "youtube")))
        XCTAssertNotEqual(VoiceCast.perPlatform.pick(for: row("alice", platform: "youtube")),
                          VoiceCast.perPlatform.pick(for: row("alice", platform: "twitch")))
        XCTAssertNil(VoiceCast.perPlatform.pick(for: row("alice")), "one stream: the source's own voice")
    }

    func testEachEngineCastsItsOwnVoices() async {
        let espeak = await ESpeakEngine().cast(VoiceOptions(voice: "en+f3"), pick: 0, language: .english)
        XCTAssertEqual(espeak.voice, "en+m1", "a variant the streamer gave is replaced, not stacked")
        let japanese = await ESpeakEngine().cast(VoiceOptions(), pick: 1, language: .japanese)
        XCTAssertEqual(japanese.voice, "ja+f1")
        XCTAssertTrue(ESpeakEngine.isVoiceName(japanese.voice))
        let jtalk = await OpenJTalkEngine().cast(VoiceOptions(voice: "/v/mei.htsvoice"), pick: 1, language: .japanese)
        XCTAssertEqual(jtalk.voice, "/v/mei.htsvoice", "Open JTalk keeps its one voice file…")
        XCTAssertEqual(jtalk.halfTones, 3, "…moved by some half-tones")
        let bouyomi = await BouyomiChanEngine(server: "127.0.0.1:50001").cast(VoiceOptions(), pick: 1, language: .japanese)
        XCTAssertEqual(bouyomi.voice, "3")
        XCTAssertEqual(Array(BouyomiChanEngine.talkCommand("あ", options: bouyomi)[8..<10]), [3, 0], "voice 3 in the command")
    }

    func testVoicevoxCastsFromTheEnginesOwnSpeakerList() {
        let answer = #"[{"name":"四国めたん","styles":[{"name":"ノーマル","id":2},{"name":"あまあま","id":0}]},"#
            + #"{"name":"ずんだもん","styles":[{"name":"ノーマル","id":3}]}]"#
        XCTAssertEqual(VoicevoxSpeakers.styleIDs(Array(answer.utf8)), [2, 0, 3])
        XCTAssertNil(VoicevoxSpeakers.styleIDs(Array("<html>".utf8)))
    }

    /// Through the reader: per viewer, alice is read in one voice on two streams, bob in another,
    /// and a viewer the streamer gave a voice is read in it.
    func testTheReaderAsksEachRowsVoice() async throws {
        let engine = VoiceRecordingEngine()
        var settings = SpeechSettings()
        settings.enabled = true
        settings.voices = .perViewer
        settings.readNames = false
        let sink = PlayingSink(rate: 48000)
        let reader = SpeechReader(settings: settings, sink: sink, engines: { _ in engine }, report: { _ in })
        defer { reader.stop() }
        reader.add(row("alice", platform: "twitch"))
        reader.add(row("bob", platform: "twitch"))
        reader.add(row("alice", platform: "youtube"))
        reader.add(row("carol", own: "en+m7"))
        let deadline = ContinuousClock.now + .seconds(10)
        while engine.voices.count < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let voices = engine.voices
        XCTAssertEqual(voices.count, 4, "\(voices)")
        XCTAssertEqual(voices[0], voices[2], "alice keeps her voice on another stream")
        XCTAssertNotEqual(voices[0], voices[1], "alice and bob in two voices")
        XCTAssertEqual(voices[3], "en+m7", "carol's own voice")
    }

    /// The real eSpeak NG: the voices two viewers are cast in sound different, one viewer's the same.
    func testTwoViewersAreTwoVoicesInTheAudio() async throws {
        let engine = ESpeakEngine()
        guard access(engine.program, X_OK) == 0 else {
            throw XCTSkip("espeak-ng is not installed (make deps installs it)")
        }
        func audio(_ user: String) async throws -> [Float] {
            let voice = RequestedVoice(pick: VoiceCast.perViewer.pick(for: row(user)))
            let options = await voice.options(VoiceOptions(voice: "en"), engine: engine, language: .english)
            return try await engine.speak("thank you for the stream", language: .english, options: options)?.samples ?? []
        }
        let (alice, bob, aliceAgain) = (try await audio("alice"), try await audio("bob"), try await audio("alice"))
        XCTAssertFalse(alice.isEmpty)
        XCTAssertEqual(alice, aliceAgain, "the same viewer, the same voice")
        XCTAssertNotEqual(alice, bob, "two viewers, two voices")
    }
}

/// An engine that records the voice each reading asked for and casts as eSpeak NG does.
final class VoiceRecordingEngine: SpeechEngine, Sendable {
    let name = "recording"
    private let asked = Mutex<[String]>([])
    var voices: [String] { asked.withLock { $0 } }

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError) -> SpeechAudio? {
        asked.withLock { $0.append(options.voice) }
        return SpeechAudio(samples: [Float](repeating: 0.1, count: 480), sampleRate: 48000)
    }

    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions {
        await ESpeakEngine().cast(options, pick: pick, language: language)
    }
}
