// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarOverlay
import CommentBarPool
import CommentBarServe
import CommentBarServices
import FoundationEssentials
import Glibc
import Logging
import NIOCore

/// `commentbar overlay`: the bar over every window of this screen, without OBS (for people who
/// stream with other software, or only play). The `serve` loop with a frame pool of its own and
/// the overlay helper; the feed's own state gives the mic badge and the clock. Ends on SIGINT.
struct Overlay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the bar above every window on this screen (click-through), without OBS.")
    @Option(help: "One of: \(ServiceRegistry.product.ids.joined(separator: ", ")); not needed when --stream is a URL or service:id")
    var service: String?
    @Option(help: ArgumentHelp("A stream URL, service:id, or with --service the stream id. Give several to merge them.",
                               valueName: "stream"))
    var stream: [String] = []
    @Option(help: "Endpoint override, with --service") var server: String = ""
    @Option(help: "A JSON file of source settings, as OBS stores them (font, colours, toggles, size...).")
    var settings: String?
    @Option(help: "top_left, top_right, bottom_left or bottom_right (default: the settings', bottom_right)")
    var corner: String?
    @Option(help: "Percent of the bar's size, \(Self.rangeHelp("overlay_scale"))") var scale: Int?
    @Option(help: "Percent, \(Self.rangeHelp("overlay_opacity"))") var opacity: Int?
    @Option(help: "Pixels from the monitor's edges, \(Self.rangeHelp("overlay_margin"))") var margin: Int?

    /// "25 to 200 (default 50)", from the settings table's row.
    static func rangeHelp(_ key: String) -> String {
        let range = SettingsSchema.range(key)
        return "\(range.lowerBound) to \(range.upperBound) (default \(SettingsSchema.int(key)))"
    }

    func validate() throws {
        if let corner, OverlayCorner(rawValue: corner) == nil {
            throw ValidationError("--corner must be one of \(OverlayCorner.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let options = [("--scale", scale, "overlay_scale"), ("--opacity", opacity, "overlay_opacity"),
                       ("--margin", margin, "overlay_margin")]
        for (name, value, key) in options {
            let range = SettingsSchema.range(key)
            if let value, !range.contains(value) {
                throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound)")
            }
        }
        guard !stream.isEmpty else { throw ValidationError("--stream is required (a stream URL, service:id, or with --service an id)") }
        if service != nil, stream.count != 1 { throw ValidationError("--service takes one --stream; give several as URLs or service:id") }
    }

    /// The settings file's bar with these options' stream and overlay on top.
    func barSettings() throws -> BarSettings {
        var bar = try SettingsFile.load(settings)
        if let service, !service.isEmpty {
            (bar.service, bar.streamID, bar.server, bar.feeds) = (service, stream[0], server, [])
        } else {
            bar.feeds = stream
        }
        if let problem = StreamPlan(settings: bar).problems.first { throw CLIError(problem) }
        bar.overlay = true
        bar.overlayCorner = corner.flatMap(OverlayCorner.init(rawValue:)) ?? bar.overlayCorner
        bar.overlayScale = scale ?? bar.overlayScale
        bar.overlayOpacity = opacity ?? bar.overlayOpacity
        bar.overlayMargin = margin ?? bar.overlayMargin
        return bar.clamped()
    }

    func run() async throws {
        // First: checking the streams (barSettings' StreamPlan) makes the feeds' HTTPS client,
        // which takes NIO's event loops; their number can be set only before that.
        NIOSingletons.groupLoopCountSuggestion = 1
        LoggingSystem.bootstrap { _ in CompactStderrLogHandler() }
        let bar = try barSettings()
        let log = Logger(label: "commentbar")
        let fd: Int32
        let pool: SharedMemoryFramePool
        do {
            fd = try StandalonePool.create(width: bar.width, height: bar.height)
            pool = try SharedMemoryFramePool(fd: fd)
        } catch {
            throw CLIError("\(error)")
        }
        let line = String(decoding: try JSONEncoder().encode(SettingsLine(settings: bar)), as: UTF8.self)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        input.yield(line)
        let stopper = SignalStopper { input.finish() }
        await ServeSession(sink: pool, log: log, presenter: OverlayPresenter(poolFd: fd, log: log)).run(messages: messages)
        stopper.stop()
        // The helper reads its end of input and goes too.
        Glibc.exit(0)
    }
}

/// The `{"settings":{…}}` line `serve` reads.
private struct SettingsLine: Encodable {
    var settings: BarSettings
}
