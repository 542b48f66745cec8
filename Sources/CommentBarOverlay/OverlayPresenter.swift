// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import FoundationEssentials
import Logging
import Synchronization

/// The overlay on the streamer's own screen (issue 24): while `overlay` is on, a helper program
/// (CModules/overlay) shows the frames this renderer publishes into its pool, scaled, above every
/// window and never taking a click. Nothing is started while it is off.
///
/// The frame loop only ever writes a short line to a non-blocking pipe. A helper that exits is
/// logged once per distinct reason and started again after a backoff (1 s doubling to 30 s); a
/// Wayland compositor without layer shell switches to the X11 helper (XWayland) for good.
public final class OverlayPresenter: FramePresenter {
    private struct State {
        var wanted: BarSettings?
        var helper: OverlayHelperProcess?
        /// Helpers told to stop, reaped by the supervisor.
        var stopping: [OverlayHelperProcess] = []
        var sequence: UInt64 = 0
        var backoff = OverlayPresenter.restartBackoff
        var retryAt = ContinuousClock.now
        var waylandRefused = false
        var supervising = false
        var announced: OverlayHelperProgram?
    }

    private let poolFd: Int32
    private let log: Logger
    /// Where the helpers are looked for; nil: OverlayHelperProgram's folders, read at each start.
    private let helperFolders: [String]?
    private let state = Mutex(State())
    /// Why the helper cannot show the bar: logged once per distinct reason, on the bar until the
    /// overlay is off or a helper has run well for a minute.
    private let problems: ProblemReporter
    /// How often the supervisor looks for an exited helper while the overlay is on.
    static let supervisePeriod = Duration.milliseconds(250)
    /// A helper that keeps failing is started again after 1 s, doubling to 30 s (no jitter: one
    /// helper per renderer, and the log and the docs name these waits).
    static let restartBackoff = Backoff(base: .seconds(1), cap: .seconds(30), jitter: false)

    /// `poolFd`: the frame pool's fd, inherited by the helper.
    /// `changed`: the problem to show changed (the frame loop looks at `problem`).
    /// `helperFolders`: where to look for the helpers, instead of OverlayHelperProgram's folders (a
    /// test gives its own, so that a package installed meanwhile does not change what it finds).
    public init(poolFd: Int32, log: Logger, helperFolders: [String]? = nil,
                changed: @escaping @Sendable () -> Void = {}) {
        self.poolFd = poolFd
        self.log = log
        self.helperFolders = helperFolders
        problems = ProblemReporter(log: log, level: .warning, changed: changed)
    }

    public var problem: String? { problems.current }

    public func settingsChanged(_ settings: BarSettings) {
        let superviseNow = state.withLock { s -> Bool in
            s.wanted = settings.overlay ? settings : nil
            if settings.overlay {
                if let helper = s.helper {
                    helper.send(Self.encode(.geometry(settings)))
                } else {
                    start(&s)
                }
            } else {
                problems.report(nil)
                if let helper = s.helper {
                    helper.stop()
                    s.stopping.append(helper)
                    s.helper = nil
                    log.info("overlay off")
                }
            }
            let begin = !s.supervising && (s.wanted != nil || !s.stopping.isEmpty)
            if begin { s.supervising = true }
            return begin
        }
        if superviseNow { Task { await self.supervise() } }
    }

    public func framePublished() {
        state.withLock { s in
            s.sequence += 1
            if let helper = s.helper { helper.send(Self.encode(.published(s.sequence))) }
        }
    }

    /// Starts the helper the session needs, if due; a failure to start counts as an exit.
    private func start(_ s: inout State) {
        guard let settings = s.wanted, s.helper == nil, ContinuousClock.now >= s.retryAt else { return }
        let program = OverlayHelperProgram.choose(waylandRefused: s.waylandRefused)
        guard let path = program.path(in: helperFolders ?? OverlayHelperProgram.folders()) else {
            failed(&s, "overlay: \(program.rawValue) not found beside the renderer or in \(OverlayHelperProgram.packageFolder)")
            return
        }
        do {
            let helper = try OverlayHelperProcess(program: program, path: path, poolFd: poolFd)
            helper.send(Self.encode(.geometry(settings)))
            // The newest frame is in the pool already: the helper shows it without waiting for the next.
            if s.sequence > 0 { helper.send(Self.encode(.published(s.sequence))) }
            s.helper = helper
            if s.announced != program {
                log.info("overlay on: \(program.rawValue) (pid \(helper.pid))")
                s.announced = program
            }
        } catch {
            failed(&s, "overlay: \(error.description)")
        }
    }

    private func failed(_ s: inout State, _ problem: String) {
        problems.report(problem)
        s.retryAt = ContinuousClock.now + s.backoff.nextDelay()
    }

    /// Reaps helpers, logs why one stopped, starts it again when due; ends when the overlay is off
    /// and every helper is gone.
    private func supervise() async {
        while true {
            try? await Task.sleep(for: Self.supervisePeriod)
            let done = state.withLock { s -> Bool in
                s.stopping.removeAll { $0.reap() != nil }
                if let helper = s.helper {
                    helper.drainErrors()
                    if let status = helper.reap() {
                        s.helper = nil
                        exited(&s, helper, status: status)
                    }
                }
                start(&s)
                let done = s.wanted == nil && s.helper == nil && s.stopping.isEmpty
                if done { s.supervising = false }
                return done
            }
            if done { return }
        }
    }

    private func exited(_ s: inout State, _ helper: OverlayHelperProcess, status: Int32) {
        let problem = helper.lastProblem ?? "overlay: \(helper.program.rawValue) exited with status \(status)"
        if ContinuousClock.now - helper.started > .seconds(60) {
            // It ran well for a while: a new fault is news again, and the backoff starts over.
            s.backoff.reset()
            problems.report(nil)
            problems.forgetLogged()
        }
        switch status {
        case OverlayExit.noLayerShell:
            s.waylandRefused = true
            log.warning("\(problem)")
            s.retryAt = ContinuousClock.now
        case OverlayExit.restart:
            log.info("\(problem)")
            s.retryAt = ContinuousClock.now
        default:
            failed(&s, problem)
        }
    }

    static func encode(_ line: OverlayLine) -> [UInt8] {
        ((try? JSONEncoder().encode(line)).map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }
}

/// The helpers' exit statuses (CModules/overlay/overlay-frame.h, enum overlay_exit).
enum OverlayExit {
    static let noLayerShell: Int32 = 4
    static let restart: Int32 = 5
}
