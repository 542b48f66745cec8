// SPDX-License-Identifier: GPL-2.0-or-later
import Logging
import Synchronization

/// "Log once per distinct problem and show it on the bar", written once: a part of the renderer
/// (speech, the memory, the control page, the overlay, the secrets) says what is wrong now, or
/// nil when all works again. A text is logged the first time it becomes the current problem
/// (a retry that fails the same way stays quiet); `changed` is called whenever the current
/// problem changes, so the frame loop can look at `current` again.
///
/// `current` is read by the frame loop on every frame: the lock is held only to copy a string,
/// never while a part does its work.
public final class ProblemReporter: Sendable {
    private let log: Logger?
    private let level: Logger.Level
    private let changed: @Sendable () -> Void
    private let state = Mutex(State())

    private struct State {
        var current: String?
        /// The text logged last: the same text again is not logged again, even after a nil
        /// between (a flapping problem would fill the log), until `forgetLogged()`.
        var logged: String?
    }

    /// `log`: where a new problem is written (nil: nowhere, the part logs its own way);
    /// `level`: how; `changed`: the current problem changed.
    public init(log: Logger?, level: Logger.Level = .error, changed: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.level = level
        self.changed = changed
    }

    /// What is wrong now (nil: nothing, or the part is off).
    public var current: String? { state.withLock { $0.current } }

    /// Says what is wrong now (nil: nothing). Returns whether `problem` was new to the log (it
    /// was written).
    @discardableResult
    public func report(_ problem: String?) -> Bool {
        let (different, new) = state.withLock { state -> (Bool, Bool) in
            let different = state.current != problem
            let new = problem != nil && problem != state.logged
            state.current = problem
            if new { state.logged = problem }
            return (different, new)
        }
        if new, let problem { log?.log(level: level, "\(problem)") }
        if different { changed() }
        return new
    }

    /// The next problem is logged even if it is the one logged last (the part ran well for a
    /// while, or its settings changed: an old fault is news again).
    public func forgetLogged() {
        state.withLock { $0.logged = nil }
    }
}
