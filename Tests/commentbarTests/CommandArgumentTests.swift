// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
@testable import commentbar
import FoundationEssentials
import Glibc
import XCTest

/// The CLI's options as ArgumentParser reads and checks them (`parse` runs `validate`).
final class RenderArgumentTests: XCTestCase {
    func testDefaultsDrawTheDemo() throws {
        let render = try Render.parse([])
        XCTAssertEqual(render.service, "demo")
        XCTAssertEqual(render.stream, "demo")
        XCTAssertEqual(render.at, 20)
        XCTAssertEqual(render.out, "bar.png")
        XCTAssertNil(render.width)
        XCTAssertNil(render.settings)
    }

    func testOptionsAreRead() throws {
        let render = try Render.parse(["--service", "file", "--stream", "events.jsonl", "--width", "640",
                                       "--height", "200", "--at", "12.5", "--out", "x.png", "--settings", "s.json"])
        XCTAssertEqual(render.service, "file")
        XCTAssertEqual(render.stream, "events.jsonl")
        XCTAssertEqual(render.width, 640)
        XCTAssertEqual(render.height, 200)
        XCTAssertEqual(render.at, 12.5)
        XCTAssertEqual(render.out, "x.png")
        XCTAssertEqual(render.settings, "s.json")
    }

    func testOutOfRangeValuesAreRefusedWithTheirName() {
        // `=`: a value that starts with "-" would otherwise read as an option.
        let refused: [([String], String)] = [
            (["--width", "10"], "--width must be between"),
            (["--height", "100000"], "--height must be between"),
            (["--at=-1"], "--at must be"),
            (["--at", "nan"], "--at must be"),
            (["--obs-streaming=-5"], "--obs-streaming must be"),
            (["--obs-recording", "inf"], "--obs-recording must be"),
            (["--obs-mic", "unknown"], "--obs-mic must be on, muted or none"),
            (["--obs-mic", "loud"], "--obs-mic must be on, muted or none"),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try Render.parse(arguments), "\(arguments)") { error in
                XCTAssert(Render.message(for: error).contains(message), "\(arguments): \(Render.message(for: error))")
            }
        }
    }

    func testNotANumberIsRefused() {
        XCTAssertThrowsError(try Render.parse(["--width", "wide"]))
        XCTAssertThrowsError(try Render.parse(["--obs-meter", "3.5"]))
    }

    func testTheOBSOptionsDescribeOBSsState() throws {
        let now = 1_700_000_000.0
        let obs = try Render.parse(["--obs-streaming", "90", "--obs-mic", "muted", "--obs-meter", "14"]).obsState(now: now)
        XCTAssertTrue(obs.frontend)
        XCTAssertTrue(obs.streaming)
        XCTAssertEqual(obs.streamingStart, now - 90)
        XCTAssertFalse(obs.recording)
        XCTAssertEqual(obs.mic, .muted)
        XCTAssertEqual(obs.micLevel, OBSLiveState.MicLevel.steps, "the meter's step is kept in its range")

        let recording = try Render.parse(["--obs-recording", "5", "--obs-meter=-2"]).obsState(now: now)
        XCTAssertTrue(recording.recording)
        XCTAssertEqual(recording.recordingStart, now - 5)
        XCTAssertEqual(recording.micLevel, 0)

        let none = try Render.parse([]).obsState(now: now)
        XCTAssertFalse(none.frontend, "without --obs-* options the bar reads the feed alone")
        XCTAssertEqual(none.mic, .unknown)
        XCTAssertNil(none.micLevel)
    }

    func testASettingsFileThatCannotBeUsedIsOneClearLine() throws {
        XCTAssertThrowsError(try SettingsFile.load("/nonexistent/settings.json")) { error in
            XCTAssertEqual("\(error)", "/nonexistent/settings.json: cannot be read")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("commentbar-cli-\(getpid()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("[1, 2]".utf8)))
        XCTAssertThrowsError(try SettingsFile.load(path)) { error in
            XCTAssertEqual("\(error)", "\(path): not a JSON object of settings")
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(#"{"width": 640}"#.utf8)))
        XCTAssertEqual(try SettingsFile.load(path).width, 640)
        XCTAssertEqual(try SettingsFile.load(nil), BarSettings(), "no file: the defaults")
    }
}

final class ServeArgumentTests: XCTestCase {
    func testThePoolFdIsRequiredAndANumber() throws {
        XCTAssertEqual(try Serve.parse(["--pool-fd", "3"]).poolFd, 3)
        XCTAssertThrowsError(try Serve.parse([]))
        XCTAssertThrowsError(try Serve.parse(["--pool-fd", "three"]))
        XCTAssertThrowsError(try Serve.parse(["--pool-fd", "99999999999"]), "more than an fd can be")
    }
}

final class BenchArgumentTests: XCTestCase {
    func testIterationsAreKeptInRange() throws {
        XCTAssertEqual(try Bench.parse([]).iterations, 300)
        XCTAssertEqual(try Bench.parse(["--iterations", "10", "--json"]).iterations, 10)
        XCTAssertTrue(try Bench.parse(["--json"]).json)
        for count in ["9", "100001", "-1"] {
            // `=`: a value that starts with "-" would otherwise read as an option.
            XCTAssertThrowsError(try Bench.parse(["--iterations=\(count)"]), count) { error in
                XCTAssert(Bench.message(for: error).contains("--iterations must be 10...100000"), Bench.message(for: error))
            }
        }
    }
}

final class TailArgumentTests: XCTestCase {
    func testAStreamIsRequired() throws {
        XCTAssertThrowsError(try Tail.parse([]).streamPlan()) { error in
            XCTAssert((error as? TailArgumentError)?.message.hasPrefix("--stream is required") == true, "\(error)")
        }
    }

    func testAServiceTakesOneStream() throws {
        XCTAssertThrowsError(try Tail.parse(["--service", "irc", "--stream", "a", "--stream", "b"]).streamPlan()) { error in
            XCTAssert((error as? TailArgumentError)?.message.hasPrefix("--service takes one --stream") == true, "\(error)")
        }
    }

    func testAServerNeedsExactlyOneStream() throws {
        let tail = try Tail.parse(["--stream", "demo:a", "--stream", "demo:b", "--server", "ws://127.0.0.1:9"])
        XCTAssertThrowsError(try tail.streamPlan()) { error in
            XCTAssertEqual((error as? TailArgumentError)?.message, "--server needs exactly one --stream")
        }
    }

    func testAStreamThatNamesNoServiceIsRefused() throws {
        XCTAssertThrowsError(try Tail.parse(["--stream", "not a stream"]).streamPlan()) { error in
            XCTAssert((error as? TailArgumentError)?.message.contains("not a stream URL or service:id") == true, "\(error)")
        }
    }

    func testAnUnknownServiceIsRefused() throws {
        XCTAssertThrowsError(try Tail.parse(["--service", "nosuch", "--stream", "x"]).streamPlan()) { error in
            XCTAssert((error as? TailArgumentError)?.message.contains("unknown service") == true, "\(error)")
        }
    }

    func testSeveralStreamsAreMergedAndNamed() throws {
        let plan = try Tail.parse(["--stream", "demo:one", "--stream", "demo:two"]).streamPlan()
        XCTAssertEqual(plan.streams.map(\.service), ["demo", "demo"])
        XCTAssertEqual(Set(plan.streams.map(\.name)).count, 2, "each stream has its own name")
        XCTAssertTrue(plan.problems.isEmpty)
    }

    func testAServiceWithItsStreamID() throws {
        let plan = try Tail.parse(["--service", "demo", "--stream", "x"]).streamPlan()
        XCTAssertEqual(plan.streams.map(\.service), ["demo"])
    }

    func testAStreamURLPicksTheServiceAndTheServerOverridesItsEndpoint() throws {
        let plan = try Tail.parse(["--stream", "https://www.twitch.tv/somechannel", "--server", "ws://127.0.0.1:9"])
            .streamPlan()
        XCTAssertEqual(plan.streams.map(\.service), ["twitch"])
        XCTAssertTrue(plan.problems.isEmpty, "\(plan.problems)")
    }
}

extension TailArgumentError: CustomStringConvertible {
    public var description: String { message }
}
