// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Dispatch
import Glibc
import Logging
import Synchronization

/// HTML5コメジェネ's comment.xml (issue 39), as MultiCommentViewer writes it and as the real
/// readers need it (issue 46; `CommentXMLDocument`): the newest 100 comments the bar shows, after
/// the rows the file already had (a new file: `CommentXMLRow.seed`). Rewritten at most every
/// `interval`, whole and atomically (`FileReplacement`: a new file beside it, renamed over it), so
/// a reader never sees half a file; never as an empty `<log>`. Everything of the files happens on
/// a thread of its own (`files`: a slow or hung disk never holds the frame loop or Swift's task
/// threads), the wait before a write included: a change asks for one write there, timed once
/// (`scheduleWrite`), so a second of comments costs one timer and one write, not a task woken per
/// comment. Stopping waits for it at most `stopWait`. A folder that cannot be written, a full disk
/// or a path that is not comment.xml is one line on the bar's status and in the log (`problems`);
/// the bar goes on, and the next change tries again.
public final class CommentXMLWriter: Sendable {
    public let problems: ProblemReporter
    private let log: Logger
    private let interval: Duration
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())
    private let files = DispatchQueue(label: "commentbar.comment-xml", qos: .utility)

    private struct State {
        /// The setting: comment.xml, or HTML5コメジェネ's setting.xml (nil: off).
        var path: String?
        /// The file written, once the setting is resolved (`GeneratorSettingFile`).
        var target: String?
        var document = CommentXMLDocument()
        /// The file's own rows were read (once per path, before its first write).
        var loaded = false
        /// Why the path is not written (it is not comment.xml, or not a file).
        var refusal: String?
        /// Files written so far (tests, the benchmark).
        var written = 0
        /// A write waits on the file thread (one at most: it takes every change made before it).
        var scheduled = false
        /// When the last write began: the next is `interval` after it.
        var lastWrite: ContinuousClock.Instant?
        /// `stop` was called: no write is timed any more.
        var stopped = false
    }

    public static let defaultInterval = Duration.milliseconds(500)
    static let stopWait = Duration.seconds(2)

    /// `clock`: Unix seconds now (tests move it by hand).
    public init(log: Logger, interval: Duration = CommentXMLWriter.defaultInterval,
                clock: @escaping @Sendable () -> Double = WallClock.now,
                changed: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.interval = interval
        self.clock = clock
        problems = ProblemReporter(log: log, level: .warning, changed: changed)
    }

    /// The `comment_xml_path` setting: empty turns it off; a new path starts anew, after the rows
    /// that file has. A path to HTML5コメジェネ's setting.xml writes comment.xml in the folder its
    /// `<HcgPath>` names (read on the file thread, before the first write).
    public func configure(path setting: String) {
        let path = setting.trimmingWhitespace(andNewlines: true)
        var problem: String?
        let wanted: String?
        if path.isEmpty {
            wanted = nil
        } else if !path.hasPrefix("/") {
            wanted = nil
            problem = "comment.xml: \(String(reflecting: String(path.prefix(80)))) is not a full path (it must start with /)"
        } else {
            wanted = path
        }
        let changed = state.withLock { state -> Bool in
            guard state.path != wanted else { return false }
            state.path = wanted
            state.target = nil
            state.document = CommentXMLDocument()
            state.loaded = false
            state.refusal = nil
            return true
        }
        guard changed || problem != nil else { return }
        problems.forgetLogged()
        problems.report(problem)
        if let wanted {
            log.info("comment.xml: writing \(wanted)")
            scheduleWrite()
        }
    }

    /// A row the bar shows (not history: a skin shows what is said now).
    public func add(_ line: ChatLine, platform: String) {
        guard !line.isHistory else { return }
        let row = CommentXMLRow(line: line, platform: platform)
        let on = state.withLock { state -> Bool in
            guard state.path != nil else { return false }
            state.document.append(row)
            return true
        }
        if on { scheduleWrite() }
    }

    /// A moderator deleted row `id`, banned `user`, or cleared the chat (neither): the file loses
    /// them. `stream`: only that stream's rows (when the bar reads several: `RowID`).
    public func remove(id: String? = nil, user: String? = nil, stream: Int? = nil) {
        let key = user?.lowercased()
        let changed = state.withLock { state -> Bool in
            guard state.path != nil else { return false }
            return state.document.remove { row in
                !row.id.isEmpty && (stream.map { RowID(parsing: row.id).stream == $0 } ?? true) && (id.map { row.id == $0 } ?? true)
                    && (key.map { row.user == $0 } ?? true)
            }
        }
        if changed { scheduleWrite() }
    }

    /// Files written so far (tests, the benchmark).
    public var written: Int { state.withLock { $0.written } }

    /// Writes what is pending, then stops; waits at most `stopWait` for a disk that hangs (a timer
    /// races the file thread: `TimeLimit`'s task group would wait for the write all the same).
    public func stop() async {
        state.withLock { $0.stopped = true }
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let race = FirstAnswer(continuation)
            files.async { [self] in
                loadIfNew()
                // The readers' rule holds for the last write too (at most a second's wait).
                let wait = untilANewSecond()
                if wait > .zero { usleep(UInt32(wait.clampedNanoseconds / 1000)) }
                writePending()
                race.answer(true)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(Self.stopWait.clampedNanoseconds))) {
                race.answer(false)
            }
        }
        if !finished {
            log.warning("comment.xml: the last write did not finish within \(Self.stopWait); stopping without it")
        }
    }

    /// One write on the file thread, `interval` after the last and in a second after the one of
    /// the last write that added rows, unless one is already timed (it takes this change too).
    private func scheduleWrite() {
        let delay = state.withLock { state -> Duration? in
            guard !state.scheduled, !state.stopped else { return nil }
            state.scheduled = true
            let spacing = state.lastWrite.map { interval - ($0.duration(to: .now)) } ?? .zero
            return max(spacing, untilANewSecond(state.document))
        }
        guard let delay else { return }
        files.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.clampedNanoseconds))) { [self] in writeDue() }
    }

    /// The timed write (on the file thread).
    private func writeDue() {
        guard state.withLock({ state -> Bool in
            state.scheduled = false
            // A change from now on is timed from this write.
            state.lastWrite = .now
            return !state.stopped
        }) else { return }
        loadIfNew()
        // A file's own rows may have moved the second a new row may be stamped in: later, then.
        guard untilANewSecond() == .zero else { return scheduleWrite() }
        writePending()
    }

    /// Before a path's first write: where it leads (`GeneratorSettingFile`) and the rows that file
    /// has (on the file thread).
    private func loadIfNew() {
        guard let path = state.withLock({ $0.loaded ? nil : $0.path }) else { return }
        let target: String?
        let loaded: CommentXMLFile.Loaded
        if !GeneratorSettingFile.names(path) {
            (target, loaded) = (path, CommentXMLFile.load(path))
        } else {
            switch GeneratorSettingFile.commentXMLPath(from: path) {
            case .commentXML(let found): (target, loaded) = (found, CommentXMLFile.load(found))
            case .refused(let why): (target, loaded) = (nil, .refused(why))
            }
        }
        let now = Int(clock())
        let refusal = state.withLock { state -> String?? in
            guard state.path == path, !state.loaded else { return .none }
            state.loaded = true
            state.target = target
            switch loaded {
            case .rows(let rows):
                // A new file (or an empty <log>) is written at once with its seed row.
                var document = CommentXMLDocument(kept: rows.isEmpty ? [.seed] : rows, now: now)
                for row in state.document.pending { document.append(row) }
                state.document = document
                state.refusal = nil
            case .refused(let why):
                state.refusal = "comment.xml: \(why)"
            }
            return .some(state.refusal)
        }
        if case .some(let problem) = refusal { problems.report(problem) }
        if case .some(.none) = refusal, let target, target != path {
            log.info("comment.xml: writing \(target), in the folder \(path) names")
        }
    }

    /// How long until new rows may be written: never in the second of the last write that added
    /// some (at most a second): the readers would take them as already seen.
    private func untilANewSecond() -> Duration {
        state.withLock { untilANewSecond($0.document) }
    }

    private func untilANewSecond(_ document: CommentXMLDocument) -> Duration {
        let now = clock()
        guard !document.mayStamp(at: Int(now)) else { return .zero }
        let untilNext = max(0.001, (now.rounded(.down) + 1) - now)
        return .milliseconds(Int(untilNext * 1000) + 1)
    }

    /// The changes since the last write, written (on the file thread).
    private func writePending() {
        let now = Int(clock())
        let pending = state.withLock { state -> (String, String)? in
            guard let path = state.target, state.loaded, state.refusal == nil else { return nil }
            state.document.stamp(at: now)
            return state.document.takeChangedText().map { (path, $0) }
        }
        guard let pending else { return }
        let (path, text) = pending
        let failure = FileReplacement.replace(path, with: Array(text.utf8))
        problems.report(failure.map { "comment.xml: cannot write \(path): \($0)" })
        state.withLock { state in
            if failure == nil {
                state.written += 1
            } else if state.target == path {
                state.document.writeFailed()
            }
        }
    }
}

/// A continuation resumed by whichever answers first (the others are ignored).
private final class FirstAnswer<T: Sendable>: Sendable {
    private let waiting: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) {
        waiting = Mutex(continuation)
    }

    func answer(_ value: T) {
        waiting.withLock { $0.take() }?.resume(returning: value)
    }
}
