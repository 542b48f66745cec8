// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSpeech
import Foundation
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// PCM in memory: everything written counts as played at once.
final class MemorySpeechSink: SpeechAudioSink, Sendable {
    let written = Mutex(0)
    var sampleRate: Int { 48_000 }
    func queuedFrames() -> Int { 0 }
    func write(_ samples: ArraySlice<Float>) -> Int {
        written.withLock { $0 += samples.count }
        return samples.count
    }
    func discardQueued() {}
}

final class SpeechProblemTests: XCTestCase {
    /// A VOICEVOX engine that is not there: the comment is skipped, the bar says why in its
    /// status line (a new frame), and the frames go on.
    func testAnEngineThatIsDownIsALineOnTheBar() async throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID()).jsonl")
        try Data(#"{"type":"comment","id":"1","user":"u","text":"hello"}"#.utf8).write(to: events)
        defer { try? FileManager.default.removeItem(at: events) }
        // A port nothing listens on: bound, then closed.
        let closedPort = try Self.unusedLoopbackPort()
        let sink = MemoryFrameSink(width: 320, height: 120)
        let audio = MemorySpeechSink()
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        input.yield(#"{"settings":{"service":"file","stream_id":"\#(events.path)","width":320,"height":120,"speech":true,"speech_engine":"voicevox","speech_server":"127.0.0.1:\#(closedPort)"}}"#)
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") },
                                   audio: audio)
        let task = Task { await session.run(messages: messages) }
        // The frames published while no problem was known: the line needs a frame after them.
        var framesBeforeTheProblem = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let frames = sink.pool.publishedCount
            if session.speech.problem == nil {
                framesBeforeTheProblem = frames
            } else if frames > framesBeforeTheProblem {
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let problem = try XCTUnwrap(session.speech.problem)
        XCTAssertTrue(problem.hasPrefix("speech (voicevox): VOICEVOX"), problem)
        XCTAssertGreaterThan(sink.pool.publishedCount, framesBeforeTheProblem, "the status line was drawn")
        XCTAssertEqual(audio.written.withLock { $0 }, 0, "nothing was spoken")
        input.yield(#"{"settings":{"service":"file","stream_id":"\#(events.path)","width":320,"height":120,"speech":false}}"#)
        for _ in 0..<100 where session.speech.problem != nil { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertNil(session.speech.problem, "speech off: no line")
        input.finish()
        await task.value
    }

    static func unusedLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
