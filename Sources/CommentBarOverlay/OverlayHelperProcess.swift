// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarOverlaySys
import Glibc

/// One running helper: its pid, the write end of its stdin (non-blocking: a stuck helper never
/// stalls the frame loop, it only misses notices) and the read end of its stderr, of which the
/// last lines are kept for the one log line when it exits.
final class OverlayHelperProcess {
    let program: OverlayHelperProgram
    let pid: pid_t
    let started = ContinuousClock.now
    private var input: Int32
    private let errors: Int32
    private var errorTail: [UInt8] = []
    static let errorTailLimit = 4096

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `path` with the pool as fd 3, stdin and stderr as pipes, the rest of our fds closed
    /// (every other fd of the renderer is close-on-exec).
    init(program: OverlayHelperProgram, path: String, poolFd: Int32) throws(SpawnError) {
        // A helper that has exited must not take the renderer with it: a write to its closed
        // stdin is then EPIPE, not SIGPIPE (the helper gets the default back, below).
        signal(SIGPIPE, SIG_IGN)
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard cb_overlay_pipe_cloexec(&toChild) == 0 else { throw SpawnError(description: "pipe: \(Self.errnoText())") }
        guard cb_overlay_pipe_cloexec(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw SpawnError(description: "pipe: \(Self.errnoText())")
        }
        _ = fcntl(toChild[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(fromChild[0], F_SETFL, O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 2)
        posix_spawn_file_actions_adddup2(&actions, poolFd, 3)
        // The helper gets default signal handling and no blocked signals, whatever the renderer set.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = [path, "--pool-fd", "3"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        self.program = program
        self.pid = pid
        input = toChild[1]
        errors = fromChild[0]
    }

    /// Sends one line; false when it could not go (the helper is slow or gone: it reads the pool anyway).
    @discardableResult
    func send(_ line: [UInt8]) -> Bool {
        guard input >= 0 else { return false }
        let written = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        return written == line.count
    }

    /// Keeps the end of what the helper wrote, so its pipe never fills.
    func drainErrors() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            errorTail += chunk[0..<count]
            if errorTail.count > Self.errorTailLimit { errorTail.removeFirst(errorTail.count - Self.errorTailLimit) }
        }
    }

    /// The line that says why it stopped: its last "overlay: …" line, else its last line.
    var lastProblem: String? {
        let lines = String(decoding: errorTail, as: UTF8.self).split(separator: "\n").map(String.init)
        return lines.last { $0.hasPrefix("overlay: ") } ?? lines.last
    }

    /// The exit status once it has exited (a signal N reads as 128 + N), nil while it runs.
    func reap() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        drainErrors()
        close(errors)
        closeInput()
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Asks it to go: end of input (it exits at EOF) and SIGTERM.
    func stop() {
        closeInput()
        kill(pid, SIGTERM)
    }

    private func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
