import ArgumentParser
import CommentBarCore
import CommentBarFeeds
import CommentBarPool
import CommentBarPoolABI
import CommentBarRender
import Foundation
import Logging
import Synchronization

/// `commentbar serve`: the renderer process the OBS shim starts. It draws the bar
/// into the shared-memory pool passed as an inherited fd, reads the source's
/// settings as JSON lines on stdin, and exits when stdin closes (so it can never
/// outlive OBS). Logs go to stderr, which the shim copies into the OBS log.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render into a shared-memory frame pool for the OBS shim (settings as JSON lines on stdin).")

    @Option(help: "The inherited file descriptor of the pool (see docs/pool-abi.md).") var poolFd: Int32

    func run() async throws {
        LoggingSystem.bootstrap { _ in CompactStderrLogHandler() }
        let log = Logger(label: "commentbar")
        let pool: SharedMemoryFramePool
        do {
            pool = try SharedMemoryFramePool(fd: poolFd)
        } catch {
            throw CLIError(error.description)
        }
        let session = ServeSession(pool: pool, log: log)
        await session.run()
    }
}

/// One serve process: the stdin reader, the feed, and the frame loop.
final class ServeSession: @unchecked Sendable {
    // @unchecked: `pool` is used by `run` before the tasks start and then only by the
    // frame loop (the ticker has its own Sendable heartbeat); all else shared is in `shared`.
    private let pool: SharedMemoryFramePool
    private let log: Logger

    struct Shared {
        var state = BarState()
        var settings = BarSettings()
        var active = true
        /// Bumped when the settings change, so the frame loop picks them up.
        var settingsRevision = 0
        /// Bumped when the feed is replaced: events from an older feed still in flight are dropped.
        var feedGeneration = 0
        /// When the frame loop last came round; the heartbeat stops if it stalls.
        var frameLoopProgress = ContinuousClock.now
    }

    /// A frame loop silent for this long is stuck: the heartbeat stops and the shim restarts us.
    static let stallLimit = Duration.seconds(10)
    private let shared = Mutex(Shared())
    private let wake: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    init(pool: SharedMemoryFramePool, log: Logger) {
        self.pool = pool
        self.log = log
        (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func run() async {
        pool.setStatus(CB_STATUS_STARTING, "starting")
        let lines = Self.stdinLines(log: log)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.frameLoop() }
            let heartbeat = pool.heartbeatWriter
            group.addTask { await self.ticker(heartbeat) }
            group.addTask {
                var feedTask: Task<Void, Never>?
                var feedKey: [String]?
                for await line in lines {
                    guard let command = self.decode(line) else { continue }
                    if let active = command.active {
                        self.shared.withLock { $0.active = active }
                        self.log.info("\(active ? "shown: rendering" : "hidden everywhere: paused")")
                    }
                    if let settings = command.settings {
                        let key = [settings.service, settings.streamID, settings.server]
                        self.shared.withLock {
                            $0.settings = settings
                            $0.settingsRevision += 1
                        }
                        if key != feedKey {
                            feedTask?.cancel()
                            feedKey = key
                            feedTask = self.startFeed(settings)
                        }
                    }
                    self.wakeUp.yield()
                }
                // stdin closed: OBS is gone or the source was destroyed.
                self.log.info("stdin closed: exiting")
                feedTask?.cancel()
                Foundation.exit(0)
            }
        }
    }

    struct Command: Decodable {
        var settings: BarSettings?
        var active: Bool?
    }

    private func decode(_ line: String) -> Command? {
        do {
            return try JSONDecoder().decode(Command.self, from: Data(line.utf8))
        } catch {
            log.error("ignoring a stdin line that is not a settings object: \(line.prefix(120))")
            return nil
        }
    }

    private func startFeed(_ settings: BarSettings) -> Task<Void, Never> {
        let generation = shared.withLock {
            $0.state = BarState()
            $0.feedGeneration += 1
            return $0.feedGeneration
        }
        let feed: any CommentFeed
        do {
            feed = try Feeds.make(service: settings.service, streamID: settings.streamID, server: settings.server)
        } catch {
            log.error("\(error.message)")
            shared.withLock { $0.state.apply(.status(.error(message: error.message))) }
            return Task {}
        }
        log.info("feed: \(settings.service) \(settings.streamID)")
        return Task {
            await feed.run { [weak self] event in
                guard let self else { return }
                if case .status(let status) = event { self.log.info("feed status: \(status.label)") }
                self.shared.withLock { if $0.feedGeneration == generation { $0.state.apply(event) } }
                self.wakeUp.yield()
            }
        }
    }

    /// Wakes the frame loop often enough for the clock, and beats the heart while
    /// the frame loop keeps coming round: one slow frame (a huge image) is not a
    /// hang, but a loop stuck for `stallLimit` is, and then the beat stops.
    private func ticker(_ heartbeat: SharedMemoryFramePool.Heartbeat) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
            let lastProgress = shared.withLock { $0.frameLoopProgress }
            if ContinuousClock.now - lastProgress < Self.stallLimit { heartbeat.beat() }
            wakeUp.yield()
        }
    }

    /// Makes a frame when something visible changed, at most `fps` times a second.
    private func frameLoop() async {
        let clock = ContinuousClock()
        var renderer: BarRenderer?
        var settingsRevision = -1
        var lastFrame = clock.now - .seconds(1)
        var lastStatus: (cb_pool_status, String)?
        for await _ in wake {
            pool.heartbeat()
            let snapshot = shared.withLock {
                $0.frameLoopProgress = clock.now
                return $0
            }
            let status = Self.poolStatus(snapshot.active ? snapshot.state.status : .paused)
            if lastStatus?.0 != status.0 || lastStatus?.1 != status.1 {
                pool.setStatus(status.0, status.1)
                lastStatus = status
            }
            guard snapshot.active else { continue }
            if snapshot.settingsRevision != settingsRevision {
                if let renderer {
                    renderer.update(settings: snapshot.settings)
                } else {
                    renderer = BarRenderer(settings: snapshot.settings, width: pool.width, height: pool.height)
                }
                settingsRevision = snapshot.settingsRevision
            }
            guard let renderer else { continue }
            let interval = Duration.seconds(1) / max(snapshot.settings.maxFPS, 1)
            let due = lastFrame + interval
            if clock.now < due { try? await clock.sleep(until: due) }
            let latest = shared.withLock { $0 }
            if renderer.render(latest.state, now: Date().timeIntervalSince1970, into: pool) {
                lastFrame = clock.now
            }
        }
    }

    private static func poolStatus(_ status: FeedStatus) -> (cb_pool_status, String) {
        switch status {
        case .connecting: return (CB_STATUS_CONNECTING, status.label)
        case .live: return (CB_STATUS_LIVE, status.label)
        case .reconnecting: return (CB_STATUS_RECONNECTING, status.label)
        case .error: return (CB_STATUS_ERROR, status.label)
        case .paused: return (CB_STATUS_PAUSED, status.label)
        }
    }

    /// Lines of stdin, read on their own thread (reading blocks); ends at EOF.
    private static func stdinLines(log: Logger) -> AsyncStream<String> {
        // Unbounded: every line counts (a dropped {"active":false} would keep a hidden bar drawing),
        // and the shim sends a line only when something changed.
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                if line.utf8.count <= 1 << 20 {
                    continuation.yield(line)
                } else {
                    log.error("ignoring a stdin line of \(line.utf8.count) bytes (more than 1 MiB)")
                }
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}

/// One line per message, "level: message", for the OBS log, which adds its own
/// timestamp and the shim's prefix.
struct CompactStderrLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = "\(event.level): \(event.message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
