// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc

/// One running helper (a `ChildProcess`): the pool as its fd 3, the write end of its stdin
/// (non-blocking: a stuck helper never stalls the frame loop, it only misses notices) and the
/// read end of its stdout and stderr, of which the last lines are kept for the one log line when
/// it exits.
final class OverlayHelperProcess {
    let program: OverlayHelperProgram
    let started = ContinuousClock.now
    private let child: ChildProcess
    private var errorTail: [UInt8] = []
    static let errorTailLimit = 4096

    var pid: pid_t { child.pid }

    /// Starts `path` with the pool as fd 3; every other descriptor of the renderer stays out of it.
    init(program: OverlayHelperProgram, path: String, poolFd: Int32) throws(ChildProcess.SpawnError) {
        self.program = program
        child = try ChildProcess(.init([path, "--pool-fd", "3"], stdin: .pipe, stdout: .pipe, stderr: .stdout,
                                       inherited: [3: poolFd]))
    }

    /// Sends one line; false when it could not go (the helper is slow or gone: it reads the pool anyway).
    @discardableResult
    func send(_ line: [UInt8]) -> Bool {
        child.write(line[...]) == line.count
    }

    /// Keeps the end of what the helper wrote, so its pipe never fills.
    func drainErrors() {
        _ = child.readAvailable(child.stdout, into: &errorTail, limit: errorTail.count + 65536)
        if errorTail.count > Self.errorTailLimit { errorTail.removeFirst(errorTail.count - Self.errorTailLimit) }
    }

    /// The line that says why it stopped: its last "overlay: …" line, else its last line.
    var lastProblem: String? {
        let lines = String(decoding: errorTail, as: UTF8.self).split(separator: "\n").map(String.init)
        return lines.last { $0.hasPrefix("overlay: ") } ?? lines.last
    }

    /// The exit status once it has exited (a signal N reads as 128 + N), nil while it runs.
    func reap() -> Int32? {
        drainErrors()
        guard let termination = child.poll() else { return nil }
        drainErrors()
        child.closeDescriptors()
        return termination.status
    }

    /// Asks it to go: end of input (it exits at EOF) and SIGTERM.
    func stop() {
        child.closeStdin()
        child.signal(SIGTERM)
    }
}
