// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Glibc
import Logging
import Synchronization

/// HTML5コメジェネ's comment.xml (issue 39), as MultiCommentViewer writes it: the newest 100
/// comments the bar shows, rewritten at most every `interval` on a task of its own (never on the
/// frame loop), each time whole and atomically (a new file beside it, then renamed over it), so a
/// skin never reads half a file. A folder that cannot be written, or a full disk, is one line on
/// the bar's status and in the log (`problems`); the bar goes on, and the next change tries again.
public final class CommentXMLWriter: Sendable {
    public let problems: ProblemReporter
    private let log: Logger
    private let interval: Duration
    private let state = Mutex(State())
    private let wake: AsyncStream<Void>.Continuation
    private let task: Mutex<Task<Void, Never>?>

    private struct State {
        /// Where to write (nil: off).
        var path: String?
        var document = CommentXMLDocument()
        /// Files written so far (tests, the benchmark).
        var written = 0
    }

    public static let defaultInterval = Duration.milliseconds(500)

    public init(log: Logger, interval: Duration = CommentXMLWriter.defaultInterval, changed: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.interval = interval
        problems = ProblemReporter(log: log, level: .warning, changed: changed)
        let (changes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        task = Mutex(nil)
        let started = Task { [self] in await writeLoop(changes) }
        task.withLock { $0 = started }
    }

    /// The `comment_xml_path` setting: empty turns it off; a new path starts a new file.
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
            state.document = CommentXMLDocument()
            return true
        }
        guard changed || problem != nil else { return }
        problems.forgetLogged()
        problems.report(problem)
        if let wanted {
            log.info("comment.xml: writing \(wanted)")
            wake.yield()
        }
    }

    /// A row the bar shows (not history: a skin shows what is said now).
    public func add(_ line: ChatLine, platform: String, now: Double) {
        guard !line.isHistory else { return }
        let on = state.withLock { state -> Bool in
            guard state.path != nil else { return false }
            state.document.append { CommentXMLRow(line: line, platform: platform, number: $0, now: now) }
            return true
        }
        if on { wake.yield() }
    }

    /// A moderator deleted row `id`, banned `user`, or cleared the chat (neither): the file loses
    /// them. `stream`: only rows whose id begins with it (`1/`, when the bar reads several streams).
    public func remove(id: String? = nil, user: String? = nil, stream: String? = nil) {
        let key = user?.lowercased()
        let changed = state.withLock { state -> Bool in
            guard state.path != nil else { return false }
            return state.document.remove { row in
                (stream.map { row.id.hasPrefix($0) } ?? true) && (id.map { row.id == $0 } ?? true)
                    && (key.map { row.user == $0 } ?? true)
            }
        }
        if changed { wake.yield() }
    }

    /// Files written so far (tests, the benchmark).
    public var written: Int { state.withLock { $0.written } }

    /// Writes what is pending, then stops.
    public func stop() async {
        wake.finish()
        await task.withLock { $0 }?.value
    }

    /// Each change wakes it; writes are spaced `interval` apart, each holding every change since.
    private func writeLoop(_ changes: AsyncStream<Void>) async {
        let clock = ContinuousClock()
        var last: ContinuousClock.Instant?
        for await _ in changes {
            if let last, clock.now - last < interval {
                try? await Task.sleep(until: last + interval, clock: clock)
            }
            last = clock.now
            guard let pending = state.withLock({ state in state.path.map { ($0, state.document.text) } }) else { continue }
            let failure = Self.replace(pending.0, with: Array(pending.1.utf8))
            problems.report(failure.map { "comment.xml: cannot write \(pending.0): \($0)" })
            if failure == nil { state.withLock { $0.written += 1 } }
        }
    }

    /// The file replaced whole: written beside it, then renamed over it. Why not, or nil.
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let temporary = path + ".commentbar-new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let count = write(fd, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }
}
