// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarSupport
import FoundationEssentials
import Logging
import Synchronization

/// The viewer memory as `serve` and `overlay` use it (`ServeSession` holds one): it follows the
/// settings and OBS's state from the stdin lines, wraps each stream's feed (`feed(_:address:)`)
/// so its comments are looked up, badged and logged, and says what is wrong for the bar's
/// status line (`problem`). While `remember` is off nothing is opened, read or written.
public final class MemoryHook: Sendable {
    private let log: Logger
    private let changed: @Sendable () -> Void
    private let state = Mutex(State())
    /// What the frame loop reads each frame (`problem`): its own lock, held only to copy a text,
    /// never while the log is opened, read or written.
    private let problems: ProblemReporter

    private struct State {
        /// The log's file while `remember` is on.
        var path: String?
        /// Opened when a live stream's feed first needs it: a bar of replays never touches the disk.
        var memory: ChatMemory?
        /// Bumped with each memory opened: a closed one's late news is not the open one's.
        var generation: UInt64 = 0
        var options = MemoryOptions()
        var limits = LogLimits.standard
        var firstTimeSetting = ""
        var locale: String?
        var maxLines = BarSettings().maxLines
        /// OBS's recording start, when OBS is recording.
        var recordingStart: Double?
        /// Why no log could be opened (no home folder).
        var pathProblem: String?

        /// What the bar's status line says of the log.
        var problem: String? { pathProblem ?? memory?.problem }
    }

    /// `changed`: the status text changed (the frame loop looks at `problem`).
    public init(log: Logger, changed: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.changed = changed
        problems = ProblemReporter(log: nil, changed: changed)
    }

    /// Why the chat log is not being written, for the bar's status line (nil: it is, or it is
    /// off). Cheap: read on every frame.
    public var problem: String? { problems.current }

    /// The log in use, opened if it is not yet (nil while `remember` is off): the control
    /// page's API.
    public var memory: ChatMemory? { current().memory }

    /// Waits (suspended, no thread held) until the log in use has been opened, at most 2 s: a
    /// feed's first comments are looked up in the file rather than taken for unknown viewers.
    func ready() async {
        await current().memory?.opened(timeout: .seconds(2))
    }

    /// One stdin line, with what `StdinMessage` already decoded of it: the settings turn the
    /// memory on or off and set its options; OBS's state gives the recording start, and its
    /// `locale` the badges' language.
    public func command(settings: BarSettings?, obs: OBSLiveState?) {
        var closing: ChatMemory?
        let recording = obs.map { $0.recording ? $0.recordingStart : nil }
        let locale = obs?.locale
        let problem = state.withLock { state -> String? in
            if let obs {
                if let locale { state.locale = locale }
                if let start = recording ?? nil, start != state.recordingStart { state.memory?.recordingStarted(at: start) }
                state.recordingStart = obs.recording ? obs.recordingStart : nil
            }
            if let settings {
                state.firstTimeSetting = settings.firstTimeLabel
                state.maxLines = settings.maxLines
                let filters = settings.filters
                if filters != state.options.filters { state.memory?.setFilters(filters) }
                state.options.filters = filters
                state.options.welcomeBackDays = settings.welcomeBackDays
                state.options.nicknamesFromChat = settings.nicknamesFromChat
                state.options.showCounts = settings.showCounts
                let limits = LogLimits(keepDays: settings.logKeepDays, maxMegabytes: settings.logMaxMB)
                if limits != state.limits { state.memory?.setLimits(limits) }
                state.limits = limits
                let path = settings.remember ? MemoryFiles.path(setting: settings.logPath) : nil
                state.pathProblem = settings.remember && path == nil
                    ? "chat log: no folder for it (HOME unset); set log_path" : nil
                if state.path != path {
                    closing = state.memory
                    state.memory = nil
                    state.path = path
                }
            }
            state.options.labels = RowLabels(firstTimeSetting: state.firstTimeSetting, locale: state.locale)
            return state.problem
        }
        problems.report(problem)
        if let closing {
            // Its writer finishes by itself: a file another program holds must not hold this loop.
            closing.close(wait: false)
            log.info("chat log closed: \(closing.path)")
        }
    }

    /// Closes the log (the renderer is exiting): what is queued is written first.
    public func stop() {
        let memory = state.withLock { state -> ChatMemory? in
            // Feeds still winding down must not open it again.
            defer { (state.memory, state.path) = (nil, nil) }
            return state.memory
        }
        memory?.close()
        problems.report(nil)
    }

    /// The channel a stream's rows belong to until its feed names its own (`FeedEvent.channel`):
    /// its service and stream id (a relay's address when it has no id).
    public static func channel(of address: StreamAddress) -> ChannelRef {
        ChannelRef(platform: address.service, channel: address.channel)
    }

    /// `feed`, with its comments looked up, badged and logged on the channel of `address`.
    /// Replays (`isReplay`: the demo and file services) and streams without an address are
    /// passed through untouched: a replay is not a new stream.
    public func feed(_ feed: any CommentFeed, address: StreamAddress?, isReplay: Bool) -> any CommentFeed {
        guard let address, !isReplay else { return feed }
        return MemoryFeed(inner: feed, hook: self, channel: Self.channel(of: address))
    }

    /// The memory (made now if it is wanted and not made yet: its writer thread opens the file,
    /// nobody waits here), the options and the history length.
    func current() -> (memory: ChatMemory?, options: MemoryOptions, maxLines: Int, recording: Double?) {
        var opened: ChatMemory?
        let current = state.withLock { state in
            if state.memory == nil, let path = state.path {
                state.generation += 1
                let generation = state.generation
                let memory = ChatMemory(path: path, log: log, waitForOpen: nil,
                                        problemChanged: { [weak self] in self?.memoryProblemChanged(generation) })
                memory.setFilters(state.options.filters)
                memory.setLimits(state.limits)
                if let start = state.recordingStart { memory.recordingStarted(at: start) }
                state.memory = memory
                opened = memory
            }
            return (state.memory, state.options, state.maxLines, state.recordingStart)
        }
        if let opened { log.info("chat log: \(opened.path)") }
        return current
    }

    /// The writer of memory number `generation` says something new (on its thread).
    private func memoryProblemChanged(_ generation: UInt64) {
        guard let problem = state.withLock({ $0.generation == generation ? .some($0.problem) : nil }) else { return }
        problems.report(problem)
    }
}
