// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc
import Logging
import Synchronization

/// Opens a URL in the user's default browser with `xdg-open URL`: a child process started
/// without a shell (the URL is one argument), its output discarded, reaped when it ends and
/// killed if it is still there after `timeLimit`; one at a time.
public final class BrowserOpener: Sendable {
    public typealias Spawn = @Sendable (_ arguments: [String]) -> Result<pid_t, SpawnError>
    public static let timeLimit = Duration.seconds(30)

    public struct SpawnError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let log: Logger
    private let spawn: Spawn
    private let running = Mutex(false)

    /// `spawn`: how the program is started (tests give their own).
    public init(log: Logger, spawn: @escaping Spawn = BrowserOpener.posixSpawn) {
        self.log = log
        self.spawn = spawn
    }

    /// Starts `xdg-open url`; false when one is still running or it could not start (logged).
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
        switch spawn(["xdg-open", url]) {
        case .failure(let error):
            running.withLock { $0 = false }
            log.error("control page: cannot open the browser: \(error.description)")
            return false
        case .success(let pid):
            Task.detached { [self] in
                await reap(pid)
                running.withLock { $0 = false }
            }
            return true
        }
    }

    private func reap(_ pid: pid_t) async {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.timeLimit
        var status: Int32 = 0
        while clock.now < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || result < 0 {
                if result == pid, status != 0 { log.warning("control page: xdg-open ended with status \(status >> 8)") }
                return
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        log.warning("control page: xdg-open did not finish within \(Self.timeLimit): stopped")
    }

    /// `posix_spawnp` with stdin, stdout and stderr on /dev/null. (The same steps as speech's
    /// `ChildProcess`: both belong on the renderer's one child-process supervisor in CommentBarSupport.)
    public static func posixSpawn(_ arguments: [String]) -> Result<pid_t, SpawnError> {
        guard let program = arguments.first else { return .failure(SpawnError(description: "no program")) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, nil, &argv, environ)
        guard result == 0 else {
            return .failure(SpawnError(description: "\(program): \(String(cString: strerror(result)))"))
        }
        return .success(pid)
    }
}
