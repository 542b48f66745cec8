// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc
import Logging
import Synchronization

/// Opens an address in the user's default browser with `xdg-open ADDRESS` (the control page's:
/// a `file://` address of a private file that leads to the one-time link, `PageTrampoline`, since
/// a command line is public): a child process of the
/// renderer's one supervisor (`ChildProcess`: no shell, the URL one argument, stdin, stdout and
/// stderr on /dev/null, no other descriptor of the renderer), reaped when it ends and killed if
/// it is still there after `timeLimit`; one at a time.
public final class BrowserOpener: Sendable {
    /// Runs a program (its name first, then its arguments) to its end; nil when it ended well,
    /// else the reason for the log.
    public typealias Run = @Sendable (_ arguments: [String]) async -> String?
    public static let timeLimit = Duration.seconds(30)

    private let log: Logger
    private let run: Run
    private let running = Mutex(false)

    /// `run`: how the program is run (tests give their own).
    public init(log: Logger, run: @escaping Run = BrowserOpener.runProgram) {
        self.log = log
        self.run = run
    }

    /// Starts `xdg-open url`; false when one is still running (logged).
    @discardableResult
    public func open(_ url: String) -> Bool {
        let started = running.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        guard started else {
            log.info("control page: the browser is still being opened")
            return false
        }
        Task.detached { [self] in
            if let problem = await run(["xdg-open", url]) { log.error("control page: cannot open the browser: \(problem)") }
            running.withLock { $0 = false }
        }
        return true
    }

    /// Finds the program in `PATH` (`ChildProcess` runs paths only), runs it with nothing to read
    /// and its output discarded, and waits for it (polling: a browser it starts may keep running,
    /// so its end is the program's own, not its output's); killed at `timeLimit`.
    public static func runProgram(_ arguments: [String]) async -> String? {
        guard let name = arguments.first, let path = program(named: name) else {
            return "\(arguments.first ?? "no program"): not found in PATH"
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(.init([path] + arguments.dropFirst()))
        } catch {
            return error.description
        }
        let deadline = ContinuousClock.now + timeLimit
        while ContinuousClock.now < deadline {
            if let ended = child.poll() { return ended == .exited(0) ? nil : "\(name) ended with \(ended)" }
            try? await Task.sleep(for: .milliseconds(200))
        }
        child.kill()
        _ = child.wait()
        return "\(name) did not finish within \(timeLimit): stopped"
    }

    /// The first executable `name` in the directories of `PATH` (or the usual ones without it).
    static func program(named name: String) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
