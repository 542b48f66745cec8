// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarOverlay
import CommentBarPool
import Foundation
import InMemoryLogging
import Logging
import CommentBarTestSupport
import XCTest

/// The presenter against stand-in helper programs (shell scripts named as the real ones in a
/// folder of COMMENTBAR_OVERLAY_DIR): what it starts, what it writes them, how it retries.
/// The real helpers on real displays are Tests/overlay's.
final class OverlayPresenterTests: XCTestCase {
    var folder = ""

    override func setUp() {
        folder = NSTemporaryDirectory() + "overlay-presenter-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        setenv("COMMENTBAR_OVERLAY_DIR", folder, 1)
        unsetenv("WAYLAND_DISPLAY")
    }

    override func tearDown() {
        unsetenv("COMMENTBAR_OVERLAY_DIR")
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A stand-in X11 helper running `script` (sh).
    func helper(_ script: String) {
        let path = folder + "/" + OverlayHelperProgram.x11.rawValue
        _ = FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n\(script)\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
    }

    func pool() throws -> Int32 { try StandalonePool.create(width: 64, height: 32) }

    func wait(seconds: Double, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !done(), Date() < deadline { usleep(20_000) }
    }

    func contents(_ name: String) -> String {
        (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
    }

    func testTheSettingsRowsDecodeWithDefaultsAndRanges() throws {
        let defaults = BarSettings()
        XCTAssertFalse(defaults.overlay)
        XCTAssertEqual(defaults.overlayCorner, .bottomRight)
        XCTAssertEqual([defaults.overlayScale, defaults.overlayOpacity, defaults.overlayMargin], [50, 90, 24])
        let json = #"{"overlay":true,"overlay_corner":"top_left","overlay_scale":999,"overlay_opacity":1,"overlay_margin":-5}"#
        let settings = try BarSettings.decode(json: Data(json.utf8))
        XCTAssertTrue(settings.overlay)
        XCTAssertEqual(settings.overlayCorner, .topLeft)
        XCTAssertEqual([settings.overlayScale, settings.overlayOpacity, settings.overlayMargin], [200, 10, 0])
        let odd = try BarSettings.decode(json: Data(#"{"overlay_corner":"middle","overlay":"yes"}"#.utf8))
        XCTAssertEqual(odd.overlayCorner, .bottomRight, "an unknown corner is the default")
        XCTAssertFalse(odd.overlay, "a mistyped value keeps the default")
    }

    func testAStandalonePoolIsOneTheRendererAttachesTo() throws {
        let fd = try pool()
        defer { close(fd) }
        let attached = try SharedMemoryFramePool(fd: fd)
        XCTAssertEqual([attached.width, attached.height, attached.stride], [64, 32, 256])
    }

    func testOffStartsNothing() throws {
        helper("echo started >> \"\(folder)/runs\"; cat >/dev/null")
        let fd = try pool()
        defer { close(fd) }
        let presenter = OverlayPresenter(poolFd: fd, log: CapturedLog().logger)
        presenter.settingsChanged(BarSettings())
        presenter.framePublished()
        usleep(500_000)
        XCTAssertEqual(contents("runs"), "", "no helper while overlay is off")
    }

    func testAHelperGetsThePoolTheGeometryAndEachFrameAndGoesWhenTurnedOff() throws {
        // It records whether fd 3 is the pool (a memfd) and each line of its stdin as it comes.
        helper("readlink /proc/self/fd/3 > \"\(folder)/fd3\"; while read -r line; do echo \"$line\" >> \"\(folder)/input\"; done")
        let fd = try pool()
        defer { close(fd) }
        let log = CapturedLog()
        let presenter = OverlayPresenter(poolFd: fd, log: log.logger)
        var settings = BarSettings()
        settings.overlay = true
        settings.overlayCorner = .topLeft
        settings.overlayScale = 30
        presenter.settingsChanged(settings)
        presenter.framePublished()
        presenter.framePublished()
        settings.overlayMargin = 7
        presenter.settingsChanged(settings)
        wait(seconds: 5) { contents("input").split(separator: "\n").count >= 4 }
        XCTAssertTrue(contents("fd3").contains("memfd:commentbar-overlay-pool"), contents("fd3"))
        let lines = contents("input").split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, "\(lines)")
        guard lines.count == 4 else { return }
        XCTAssertTrue(lines[0].contains(#""corner":"top_left""#) && lines[0].contains(#""scale":30"#), lines[0])
        XCTAssertEqual(lines[1], #"{"frame":1}"#)
        XCTAssertEqual(lines[2], #"{"frame":2}"#)
        XCTAssertTrue(lines[3].contains(#""margin":7"#), lines[3])
        XCTAssertTrue(log.messages.contains { $0.hasPrefix("overlay on: commentbar-overlay-x11") })
        // Off: the helper is told to go (end of input, SIGTERM) and is gone soon after.
        let started = log.messages.first { $0.hasPrefix("overlay on:") } ?? ""
        let pid = pid_t(started.split(separator: " ").last?.dropLast() ?? "") ?? 0
        XCTAssertGreaterThan(pid, 0, started)
        settings.overlay = false
        presenter.settingsChanged(settings)
        wait(seconds: 3) { kill(pid, 0) != 0 }
        XCTAssertNotEqual(kill(pid, 0), 0, "the helper is gone and reaped")
    }

    func testAFailingHelperIsLoggedOnceAndStartedAgainWithBackoff() throws {
        helper("echo run >> \"\(folder)/runs\"; echo 'overlay: cannot open the X display :99' >&2; exit 2")
        let fd = try pool()
        defer { close(fd) }
        let log = CapturedLog()
        let presenter = OverlayPresenter(poolFd: fd, log: log.logger)
        var settings = BarSettings()
        settings.overlay = true
        presenter.settingsChanged(settings)
        // Starts at once, again about 1 s after it failed, then 2 s after that: three runs within 5 s.
        wait(seconds: 5) { contents("runs").split(separator: "\n").count >= 3 }
        XCTAssertGreaterThanOrEqual(contents("runs").split(separator: "\n").count, 3)
        let said = log.messages.filter { $0.contains("cannot open the X display") }
        XCTAssertEqual(said, ["overlay: cannot open the X display :99"], "one line for one reason")
        settings.overlay = false
        presenter.settingsChanged(settings)
    }

    func testAMissingHelperIsOneClearLine() throws {
        let fd = try pool()
        defer { close(fd) }
        let log = CapturedLog()
        // No folder to look in: whether a .deb is installed meanwhile (make check's test-deb puts
        // the helpers in /usr/libexec/comment-bar for a while) does not matter.
        let presenter = OverlayPresenter(poolFd: fd, log: log.logger, helperFolders: [])
        var settings = BarSettings()
        settings.overlay = true
        presenter.settingsChanged(settings)
        presenter.settingsChanged(settings)
        let said = log.messages
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(said.first?.contains("commentbar-overlay-x11 not found") ?? false, "\(said)")
        settings.overlay = false
        presenter.settingsChanged(settings)
    }
}
