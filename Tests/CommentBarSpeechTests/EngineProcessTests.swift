// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarSpeech
import Foundation
import XCTest

/// The engines that are programs (Open JTalk, eSpeak NG) as child processes: a stand-in
/// open_jtalk (a shell script) records what it is handed; the real espeak-ng where installed.
final class EngineProcessTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "speech-engines-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // checkVoice wants an HTS voice's first line.
        try Data("[GLOBAL]\n".utf8).write(to: URL(fileURLWithPath: folder + "/voice.htsvoice"))
        let wav = WAVFile.encode(SpeechAudio(samples: [Float](repeating: 0.25, count: 4800), sampleRate: 48000))
        try Data(wav).write(to: URL(fileURLWithPath: folder + "/reply.wav"))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A stand-in open_jtalk running `script` (sh); the dictionary is the test folder.
    func openJTalk(_ script: String, timeLimit: Duration = .seconds(20)) throws -> OpenJTalkEngine {
        let path = folder + "/open_jtalk"
        try Data("#!/bin/sh\necho $$ > \"\(folder)/pid\"\n\(script)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return OpenJTalkEngine(program: path, dictionary: folder, timeLimit: timeLimit)
    }

    func read(_ name: String) -> [UInt8] {
        (try? Array(Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))) ?? []
    }

    func testTheOverflowingCommentReachesOpenJTalkBoundedOnItsStdin() async throws {
        let engine = try openJTalk("cat > \"\(folder)/input\"; cat \"\(folder)/reply.wav\"")
        let row = ChatLine(id: "1", user: "viewer", text: SpeechInputBoundTests.overflowingComment)
        let sentence = try XCTUnwrap(ReadingRules(readNames: true, maxCharacters: 80).sentence(for: row))
        let audio = try await engine.speak(sentence, language: .japanese,
                                           options: VoiceOptions(voice: folder + "/voice.htsvoice"))
        XCTAssertEqual(audio?.samples.count, 4800)
        let handed = String(decoding: read("input"), as: UTF8.self)
        XCTAssertTrue(handed.hasSuffix("\n"), "one line")
        XCTAssertLessThan(openJTalkExpandedBytes(handed), 1000, "what open_jtalk copies into its 1,024 bytes")
        XCTAssertGreaterThan(handed.utf8.count, 100, "the sentence was read, not dropped")
    }

    func testAnOpenJTalkPastItsTimeLimitIsKilled() async throws {
        let engine = try openJTalk("exec sleep 30", timeLimit: .seconds(1))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            _ = try await engine.speak("こんにちは", language: .japanese, options: VoiceOptions(voice: folder + "/voice.htsvoice"))
            XCTFail("a child that never answers is an error")
        } catch {
            XCTAssertTrue(error.description.contains("took more than 1 s"), error.description)
        }
        XCTAssertLessThan(clock.now - started, .seconds(10))
        let pid = try XCTUnwrap(Int32(String(decoding: read("pid"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(pid)"), "killed and reaped")
    }

    func testAFailingOpenJTalkIsOneClearLine() async throws {
        let engine = try openJTalk("echo 'Error: Dictionary or HTS voice cannot be loaded.' >&2; exit 1")
        do {
            _ = try await engine.speak("あ", language: .japanese, options: VoiceOptions(voice: folder + "/voice.htsvoice"))
            XCTFail("exit 1 is an error")
        } catch {
            XCTAssertEqual(error.description, "Open JTalk failed (exit status 1) with voice \(folder)/voice.htsvoice: "
                           + "Error: Dictionary or HTS voice cannot be loaded.")
        }
    }

    /// eSpeak NG speaks in a child process: after it has, the renderer (this process) has no
    /// libespeak-ng mapped.
    func testESpeakIsNeverMappedIntoTheRenderer() async throws {
        let engine = ESpeakEngine()
        if access(engine.program, X_OK) == 0 {
            let audio = try await engine.speak("hello there", language: .english, options: VoiceOptions())
            XCTAssertGreaterThan(audio?.seconds ?? 0, 0.3)
            do {
                _ = try await engine.speak("hello", language: .english, options: VoiceOptions(voice: "zzzz"))
                XCTFail("an unknown voice is an error")
            } catch {
                XCTAssertEqual(error.description, #"eSpeak NG has no voice "zzzz""#)
            }
        } else {
            do {
                _ = try await engine.speak("hello", language: .english, options: VoiceOptions())
                XCTFail("no program, no speech")
            } catch {
                XCTAssertTrue(error.description.contains("not installed"), error.description)
            }
        }
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        XCTAssertFalse(maps.contains("libespeak"), "libespeak-ng is not in this process")
    }

    func testAVoiceNameThatIsAnOptionOrAPathIsRefused() {
        XCTAssertTrue(ESpeakEngine.isVoiceName("en-us"))
        XCTAssertTrue(ESpeakEngine.isVoiceName("en+f3"))
        XCTAssertFalse(ESpeakEngine.isVoiceName("--stdout"))
        XCTAssertFalse(ESpeakEngine.isVoiceName("../../etc/passwd"))
        XCTAssertFalse(ESpeakEngine.isVoiceName(String(repeating: "a", count: 41)))
    }
}
