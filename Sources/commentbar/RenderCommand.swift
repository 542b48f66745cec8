// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import CommentBarRender
import CommentBarServe
import CommentBarServices
import FoundationEssentials
import Glibc
import Logging

/// `commentbar render`: the bar as it looks a number of seconds into a stream, as a PNG.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the bar as it looks SECONDS into a demo or file stream to a PNG.")

    @Option(help: "A replayable service: \(ServiceRegistry.all.filter { $0.makeTimeline != nil }.map(\.id).joined(separator: " or "))")
    var service: String = "demo"
    @Option(help: "The stream id: for file, the path of a JSON-lines event file.") var stream: String = "demo"
    @Option(help: "Width in pixels (default: the settings' width, 1280).") var width: Int?
    @Option(help: "Height in pixels (default: the settings' height, 360).") var height: Int?
    @Option(help: "Seconds into the stream.") var at: Double = 20
    @Option(help: "A JSON file of source settings, as OBS stores them (font, colours, toggles...).")
    var settings: String?
    @Option(help: ArgumentHelp("""
        A look: a built-in theme (\(Theme.builtinNames.joined(separator: ", "))) or a theme file's path, \
        instead of the settings' own `theme`. A theme that cannot be used is said on stderr, the bar is \
        drawn without it and the exit status is 2.
        """, valueName: "name-or-file"))
    var theme: String?
    @Option(help: "Where to write the PNG.") var out: String = "bar.png"
    @Option(name: .customLong("obs-streaming"), help: ArgumentHelp(
        "Draw the bar as if OBS had been streaming this many seconds.", valueName: "seconds"))
    var obsStreaming: Double?
    @Option(name: .customLong("obs-recording"), help: ArgumentHelp(
        "Draw the bar as if OBS had been recording this many seconds.", valueName: "seconds"))
    var obsRecording: Double?
    @Option(name: .customLong("obs-mic"), help: "The OBS mic's state: on, muted or none (no such source).")
    var obsMic: String?
    @Option(name: .customLong("obs-meter"), help: "The mic level meter's step, 0 to 10 (with mic_meter on).")
    var obsMeter: Int?

    func validate() throws {
        if let obsMic, MicState(rawValue: obsMic) == nil || obsMic == "unknown" {
            throw ValidationError("--obs-mic must be on, muted or none")
        }
        for (name, value) in [("--obs-streaming", obsStreaming), ("--obs-recording", obsRecording)] {
            if let value, !(value.isFinite && value >= 0) { throw ValidationError("\(name) must be a number of seconds >= 0") }
        }
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a number of seconds >= 0") }
        for (name, value) in [("--width", width), ("--height", height)] {
            if let value, !BarSettings.sizeRange.contains(value) {
                throw ValidationError("\(name) must be between \(BarSettings.sizeRange.lowerBound) and \(BarSettings.sizeRange.upperBound)")
            }
        }
    }

    /// The OBS state the `--obs-…` options describe, at unix time `now`.
    func obsState(now: Double) -> OBSLiveState {
        var obs = OBSLiveState()
        obs.frontend = obsStreaming != nil || obsRecording != nil
        if let seconds = obsStreaming { obs.streaming = true; obs.streamingStart = now - seconds }
        if let seconds = obsRecording { obs.recording = true; obs.recordingStart = now - seconds }
        obs.mic = obsMic.flatMap(MicState.init(rawValue:)) ?? .unknown
        obs.micLevel = obsMeter.map { min(max($0, 0), OBSLiveState.MicLevel.steps) }
        return obs
    }

    /// The moment `--at` of the replay: the settings' `feeds` (several `file:PATH`s merge, as
    /// `serve` merges streams) or `--service`/`--stream`; through the settings' filters.
    func replayState(_ settings: BarSettings) throws -> (BarState, Double) {
        var addresses = [StreamAddress(service: service, streamID: stream)]
        if !settings.feeds.isEmpty {
            let (listed, problems) = StreamAddress.list(settings.feeds, table: ServiceRegistry.product.streamURLs)
            if let problem = problems.first { throw CLIError(problem) }
            addresses = listed
        }
        var parts: [(timeline: FeedTimeline, origin: BarState.Origin)] = []
        for (index, address) in addresses.enumerated() {
            do {
                let timeline = try ServiceRegistry.product.makeTimeline(service: address.service, streamID: address.streamID)
                parts.append((timeline, BarState.Origin(index: index, count: addresses.count,
                                                         name: address.description, service: address.service,
                                                         badge: ServiceRegistry.product.badge(service: address.service))))
            } catch {
                throw CLIError(error.message)
            }
        }
        return FeedTimeline.mergedState(parts, at: at, filters: settings.filters)
    }

    func run() async throws {
        var barSettings = try SettingsFile.load(settings, theme: theme)
        barSettings.width = width ?? barSettings.width
        barSettings.height = height ?? barSettings.height
        let (state, now) = try replayState(barSettings)
        // The https images of that moment are fetched first (each within its timeout), so the PNG shows them.
        let images = RemoteImageFetches(log: Logger(label: "commentbar.render"), decodesOffFrameLoop: false, arrived: {})
        images.want(barSettings.avatarPath.isEmpty ? state.avatar : nil, for: .avatar)
        images.want(barSettings.backgroundPath.isEmpty ? state.background : nil, for: .background)
        // The rows' emotes too, for a few seconds at most: a picture that does not come shows as text.
        let emotes = EmoteFetches(log: Logger(label: "commentbar.render"), arrived: {})
        emotes.want(state.lines.suffix(50))
        await images.waitForAll()
        await emotes.waitForAll(seconds: 5)
        emotes.giveUp(after: 5)
        let pool = MemoryFramePool(width: barSettings.width, height: barSettings.height)
        let renderer = BarRenderer(settings: barSettings, width: barSettings.width, height: barSettings.height,
                                   remoteImages: images.store, emotes: emotes.store)
        renderer.render(state, obs: obsState(now: now), now: now, into: pool)
        guard let frame = pool.newestFrame else { throw CLIError("nothing was rendered") }
        do {
            try PNGFile.write(frame, to: out)
        } catch {
            throw CLIError(error.description)
        }
        if let problem = barSettings.themeProblem {
            // The picture has the look without the theme; the status says the theme could not be used.
            POSIXIO.writeAll("commentbar render: theme: \(problem)\n", fd: STDERR_FILENO)
            throw ExitCode(2)
        }
    }
}

/// An error that ArgumentParser prints as one line, with a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum SettingsFile {
    /// `theme`: a theme instead of the settings' own (nil: theirs).
    static func load(_ path: String?, theme: String? = nil) throws -> BarSettings {
        guard let path else { return ThemeFiles.resolved(try BarSettings.decode(json: Data("{}".utf8), theme: theme)) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("\(path): cannot be read")
        }
        do {
            return ThemeFiles.resolved(try BarSettings.decode(json: data, theme: theme))
        } catch {
            throw CLIError("\(path): not a JSON object of settings")
        }
    }
}
