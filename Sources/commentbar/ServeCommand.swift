// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarOverlay
import CommentBarPool
import CommentBarPoolABI
import CommentBarRender
import CommentBarServe
import CommentBarSpeech
import Glibc
import Logging
import NIOCore

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
        // One event-loop thread serves every feed and fetch of one bar; NIO's default is one per
        // core, each with its stack and malloc arena.
        NIOSingletons.groupLoopCountSuggestion = 1
        RendererMemory.configureProcess()
        let log = Logger(label: "commentbar")
        let pool: SharedMemoryFramePool
        do {
            pool = try SharedMemoryFramePool(fd: poolFd)
        } catch {
            throw CLIError(error.description)
        }
        // The overlay helper starts only when a settings line turns `overlay` on.
        let presenter = OverlayPresenter(poolFd: poolFd, log: log)
        await ServeSession(sink: pool, log: log, presenter: presenter, audio: pool.audioRing).run(messages: StdinLines.stream(log: log))
        // Feed connections still closing must not keep a process OBS has let go of.
        Glibc.exit(0)
    }
}

/// The shared-memory pool is where `serve` puts its frames for the OBS shim.
extension SharedMemoryFramePool: FrameSink {
    public func setStatus(_ status: SinkStatus, detail: String) {
        let code: cb_pool_status
        switch status {
        case .starting: code = CB_STATUS_STARTING
        case .connecting: code = CB_STATUS_CONNECTING
        case .live: code = CB_STATUS_LIVE
        case .reconnecting: code = CB_STATUS_RECONNECTING
        case .error: code = CB_STATUS_ERROR
        case .paused: code = CB_STATUS_PAUSED
        case .waiting: code = CB_STATUS_WAITING
        case .ended: code = CB_STATUS_ENDED
        }
        setStatus(code, detail)
    }

    public func makeHeartbeat() -> @Sendable () -> Void {
        let writer = heartbeatWriter
        return { writer.beat() }
    }
}

/// Speech goes to the pool's audio ring (issue 20).
extension SharedMemoryAudioRing: SpeechAudioSink {}
