// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc
import Testing

/// The one child-process supervisor, against real programs (/bin/sh, coreutils, python3).
@Suite struct ChildProcessTests {
    func run(_ script: String, input: String = "", outputLimit: Int = 1 << 20, timeLimit: Duration = .seconds(20),
             limits: ChildProcess.Limits = .init(), inherited: [Int32: Int32] = [:]) async throws -> ChildProcess.Outcome {
        try await ChildProcess.run(.init(["/bin/sh", "-c", script], inherited: inherited, limits: limits),
                                   input: Array(input.utf8), outputLimit: outputLimit, timeLimit: timeLimit)
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Whether `pid` is still a process (a zombie is one): after a run it must not be.
    func exists(_ pid: pid_t) -> Bool {
        var info = stat()
        return stat("/proc/\(pid)", &info) == 0
    }

    @Test func exitStatusOutputAndErrorsAreReported() async throws {
        let outcome = try await run("cat; echo oops >&2; exit 3", input: "hello")
        #expect(outcome.termination == .exited(3))
        #expect(outcome.termination.status == 3)
        #expect(text(outcome.output) == "hello")
        #expect(outcome.lastErrorLine == "oops")
        #expect(!outcome.timedOut && !outcome.outputCut && !outcome.cancelled)
    }

    @Test func aSignalIsReportedAsOne() async throws {
        let outcome = try await run("kill -SEGV $$")
        #expect(outcome.termination == .signalled(SIGSEGV))
        #expect(outcome.termination.status == 128 + SIGSEGV)
        #expect(outcome.termination.description == "killed by signal 11 (SIGSEGV)")
    }

    @Test func aChildPastItsDeadlineIsKilledAndReaped() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = try await run("echo $$; exec sleep 30", timeLimit: .milliseconds(500))
        let pid = pid_t(text(outcome.output).split(separator: "\n").first.map(String.init) ?? "") ?? 0
        #expect(outcome.timedOut)
        #expect(outcome.termination == .signalled(SIGKILL))
        // Well before the child's own 30 s; not a tight bound: this test's resumption waits for a
        // thread of the cooperative pool, which the other tests share.
        #expect(clock.now - started < .seconds(25), "killed at the deadline, not after the child's 30 s")
        #expect(pid > 0)
        #expect(!exists(pid), "no zombie left")
    }

    @Test func outputPastItsLimitIsCutAndTheChildStopped() async throws {
        let outcome = try await run("exec yes", outputLimit: 10_000)
        #expect(outcome.outputCut)
        #expect(outcome.output.count == 10_000)
        #expect(outcome.termination == .signalled(SIGKILL))
    }

    /// The child allocates 256 MiB once its input (after the limits) arrives: under a 128 MiB
    /// address-space limit it fails; without one it succeeds.
    @Test func theAddressSpaceLimitIsAppliedToTheChild() async throws {
        let python = "/usr/bin/python3"
        guard access(python, X_OK) == 0 else { return }
        let script = ["import sys", "sys.stdin.read()", "x = bytearray(256 << 20)", "print(len(x))"].joined(separator: "\n")
        let arguments = [python, "-c", script]
        let limited = try await ChildProcess.run(.init(arguments, limits: .init(addressSpaceBytes: 128 << 20)),
                                                 input: Array("go".utf8), outputLimit: 1000, timeLimit: .seconds(30))
        #expect(limited.termination == .exited(1), "\(limited.termination)")
        #expect(limited.lastErrorLine == "MemoryError")
        let free = try await ChildProcess.run(.init(arguments), input: Array("go".utf8), outputLimit: 1000,
                                              timeLimit: .seconds(30))
        #expect(free.termination == .exited(0), "\(free.termination)")
        #expect(text(free.output) == "\(256 << 20)\n")
    }

    @Test func theCPULimitStopsASpinningChild() async throws {
        let outcome = try await run("while :; do :; done", timeLimit: .seconds(30), limits: .init(cpuSeconds: 1))
        #expect(outcome.termination == .signalled(SIGXCPU) || outcome.termination == .signalled(SIGKILL),
                "\(outcome.termination)")
        #expect(!outcome.timedOut, "the CPU limit stopped it, not the deadline")
    }

    @Test func theOpenFilesLimitIsApplied() async throws {
        let outcome = try await run("read x; ulimit -n", input: "go\n", limits: .init(openFiles: 17))
        #expect(text(outcome.output) == "17\n")
    }

    /// Only 0, 1, 2 and what it was given reach the child: not a descriptor the renderer left
    /// inheritable (no close-on-exec), nor the pipes' other ends.
    @Test func noDescriptorLeaksIntoTheChild() async throws {
        let leaky = open("/dev/null", O_RDONLY)  // inheritable on purpose
        #expect(leaky > 2)
        defer { close(leaky) }
        // `ls` opens the folder it lists: one more descriptor, the lowest free.
        let plain = try await ChildProcess.run(.init(["/bin/ls", "/proc/self/fd"]), input: [], outputLimit: 10_000,
                                               timeLimit: .seconds(10))
        #expect(text(plain.output).split(separator: "\n") == ["0", "1", "2", "3"])
        let given = try await ChildProcess.run(.init(["/bin/sh", "-c", "readlink /proc/self/fd/3; ls /proc/self/fd"],
                                                     inherited: [3: leaky]),
                                               input: [], outputLimit: 10_000, timeLimit: .seconds(10))
        let lines = text(given.output).split(separator: "\n")
        #expect(lines.first == "/dev/null")
        #expect(lines.dropFirst() == ["0", "1", "2", "3", "4"])
    }

    /// A descriptor the child gets at a number another one takes in it (our stdin, which the
    /// child's stdin pipe replaces in it, given to it as fd 3) still reaches it as itself.
    @Test func descriptorsThatCollideAreNotMixedUp() async throws {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/fd/0", &buffer, buffer.count - 1)
        #expect(length > 0)
        let ours = String(decoding: buffer[0..<max(length, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let outcome = try await ChildProcess.run(.init(["/bin/sh", "-c", "readlink /proc/self/fd/3 /proc/self/fd/0"],
                                                       inherited: [3: 0]),
                                                 input: [], outputLimit: 10_000, timeLimit: .seconds(10))
        let lines = text(outcome.output).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == ours, "fd 3 is our stdin, not the child's stdin pipe")
        #expect(lines.last != ours && lines.last?.hasPrefix("pipe:") == true, "\(lines)")
    }

    @Test func aProgramThatIsNotThereIsAClearError() async {
        await #expect(throws: ChildProcess.SpawnError.self) {
            _ = try await ChildProcess.run(.init(["/nonexistent/program"]), input: [], outputLimit: 10,
                                           timeLimit: .seconds(1))
        }
        #expect(throws: ChildProcess.SpawnError.self) { _ = try ChildProcess(.init(["sh"])) }  // no PATH search
        #expect(throws: ChildProcess.SpawnError.self) { _ = try ChildProcess(.init([])) }
    }

    @Test func cancellingTheTaskKillsTheChild() async throws {
        let task = Task { try await run("echo $$; exec sleep 30", timeLimit: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let outcome = try await task.value
        #expect(outcome.cancelled)
        #expect(outcome.termination == .signalled(SIGKILL))
    }

    @Test func aDroppedChildIsKilledAndReaped() throws {
        var pid: pid_t = 0
        do {
            let child = try ChildProcess(.init(["/bin/sleep", "30"]))
            pid = child.pid
            #expect(exists(pid))
        }
        #expect(!exists(pid), "killed and reaped when dropped")
    }
}
