// SPDX-License-Identifier: GPL-2.0-or-later
import CSysCalls
import Glibc

/// A child program: the one way the renderer starts one (the overlay helper, the speech
/// engines). Started with posix_spawn, never through a shell; it gets exactly the descriptors
/// named here (stdin, stdout, stderr and any extra, like the overlay's pool as fd 3) and every
/// other descriptor of the renderer is closed in it, whatever its close-on-exec flag. Its signal
/// handling is the default, whatever the renderer set. Optional resource limits (address space,
/// CPU time, open files) are set on its pid right after the spawn, before it is given any input
/// (`run` writes its input only then). It is always reaped: by `poll`/`wait`, or killed and
/// reaped when dropped, so no zombie is left.
public final class ChildProcess {
    /// Resource limits of the child; 0: none.
    public struct Limits: Sendable, Equatable {
        public var addressSpaceBytes: Int
        public var cpuSeconds: Int
        public var openFiles: Int

        public init(addressSpaceBytes: Int = 0, cpuSeconds: Int = 0, openFiles: Int = 0) {
            self.addressSpaceBytes = addressSpaceBytes
            self.cpuSeconds = cpuSeconds
            self.openFiles = openFiles
        }

        var isNone: Bool { addressSpaceBytes <= 0 && cpuSeconds <= 0 && openFiles <= 0 }
    }

    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable, Equatable {
        /// /dev/null.
        case null
        /// A pipe whose other end the renderer holds (non-blocking).
        case pipe
        /// The renderer's own descriptor.
        case inherit
        /// stderr only: wherever stdout goes.
        case stdout
    }

    public struct Configuration: Sendable {
        /// The program's path first (never searched for in `PATH`), then its arguments.
        public var arguments: [String]
        /// `NAME=value` entries; nil: the renderer's environment.
        public var environment: [String]?
        public var stdin: Stream
        public var stdout: Stream
        public var stderr: Stream
        /// More descriptors the child gets: its number (3 and up) → the renderer's descriptor.
        public var inherited: [Int32: Int32]
        public var limits: Limits

        public init(_ arguments: [String], environment: [String]? = nil, stdin: Stream = .null,
                    stdout: Stream = .null, stderr: Stream = .null, inherited: [Int32: Int32] = [:],
                    limits: Limits = Limits()) {
            self.arguments = arguments
            self.environment = environment
            self.stdin = stdin
            self.stdout = stdout
            self.stderr = stderr
            self.inherited = inherited
            self.limits = limits
        }
    }

    /// How it ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// Reaped by someone else (SIGCHLD ignored): nothing is known.
        case unknown

        /// A shell's status: the exit code, or 128 + the signal.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            case .unknown: -1
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signalled(let signal): "killed by signal \(signal)\(Self.signalName(signal).map { " (\($0))" } ?? "")"
            case .unknown: "ended (status unknown)"
            }
        }

        static func signalName(_ signal: Int32) -> String? {
            switch signal {
            case SIGKILL: "SIGKILL"
            case SIGTERM: "SIGTERM"
            case SIGSEGV: "SIGSEGV"
            case SIGABRT: "SIGABRT"
            case SIGXCPU: "SIGXCPU"
            case SIGBUS: "SIGBUS"
            case SIGPIPE: "SIGPIPE"
            default: nil
            }
        }

        init(waitStatus status: Int32) {
            // WIFSIGNALED / WTERMSIG / WEXITSTATUS.
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }
    }

    public struct SpawnError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public let pid: pid_t
    /// The program's path, for log lines.
    public let program: String
    /// The renderer's ends of the pipes asked for (-1: none), non-blocking; closed once reaped.
    public private(set) var stdin: Int32
    public private(set) var stdout: Int32
    public private(set) var stderr: Int32
    public private(set) var termination: Termination?

    public init(_ configuration: Configuration) throws(SpawnError) {
        guard let path = configuration.arguments.first, !path.isEmpty else {
            throw SpawnError(description: "cannot run a program without a name")
        }
        // A child that has exited must not take the renderer with it: a write to its closed
        // stdin is then EPIPE, not SIGPIPE (the child gets the default back, below).
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        var plan = DescriptorPlan()
        defer { plan.closeAll() }
        let ours = try plan.prepare(configuration)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in plan.dups { posix_spawn_file_actions_adddup2(&actions, source, target) }
        for (target, flags) in plan.nulls { posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0) }
        if configuration.stderr == .stdout { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        let closed = cb_sys_spawn_close_from(&actions, plan.highestTarget + 1)
        guard closed == 0 else { throw SpawnError(description: "cannot run \(path): \(Self.text(errno: closed))") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGXCPU] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = configuration.arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result: Int32
        if let environment = configuration.environment {
            var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            result = posix_spawn(&pid, path, &actions, &attributes, &argv, &envp)
        } else {
            result = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
        }
        guard result == 0 else { throw SpawnError(description: "cannot run \(path): \(Self.text(errno: result))") }
        self.pid = pid
        program = path
        (stdin, stdout, stderr) = ours
        plan.keep([ours.0, ours.1, ours.2])
        if !configuration.limits.isNone {
            let limits = configuration.limits
            let set = cb_sys_limit_process(pid, UInt64(max(limits.addressSpaceBytes, 0)),
                                           UInt64(max(limits.cpuSeconds, 0)), UInt64(max(limits.openFiles, 0)))
            // ESRCH: it has already exited (it is reaped as usual). Anything else: it must not run unlimited.
            if set != 0 && errno != ESRCH {
                let reason = Self.text(errno: errno)
                kill()
                _ = wait()
                closeDescriptors()
                throw SpawnError(description: "cannot limit \(path): \(reason)")
            }
        }
    }

    deinit {
        if termination == nil {
            Glibc.kill(pid, SIGKILL)
            _ = wait()
        }
        closeDescriptors()
    }

    /// Writes what fits now (the pipe is non-blocking); the number of bytes written, -1 when
    /// the child is gone or its stdin closed.
    public func write(_ bytes: ArraySlice<UInt8>) -> Int {
        guard stdin >= 0 else { return -1 }
        let written = bytes.withUnsafeBytes { Glibc.write(stdin, $0.baseAddress, $0.count) }
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EINTR ? 0 : -1
    }

    /// End of input: the child reads EOF.
    public func closeStdin() {
        if stdin >= 0 { close(stdin) }
        stdin = -1
    }

    /// Reads what is there now from `fd` (stdout or stderr) into `into`, at most `limit` bytes in
    /// all; false at end of file or on an error.
    public func readAvailable(_ fd: Int32, into bytes: inout [UInt8], limit: Int) -> Bool {
        guard fd >= 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count > 0 {
                bytes += chunk[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return count < 0 && errno == EAGAIN
        }
        return true
    }

    /// A signal to the child, while it has not been reaped (its pid is still its own).
    public func signal(_ number: Int32) {
        if termination == nil { Glibc.kill(pid, number) }
    }

    public func kill() { signal(SIGKILL) }

    /// How it ended, once it has (the pipes are then closed); nil while it runs.
    public func poll() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { return reaped(Termination(waitStatus: status)) }
        if result < 0 && errno == ECHILD { return reaped(.unknown) }
        return nil
    }

    /// Waits until it has ended (use after `kill`, or for a child that ends by itself).
    public func wait() -> Termination {
        if let termination { return termination }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, 0)
            if result == pid { return reaped(Termination(waitStatus: status)) }
            if result < 0 && errno != EINTR { return reaped(.unknown) }
        }
    }

    private func reaped(_ how: Termination) -> Termination {
        termination = how
        return how
    }

    /// The pipes, once the caller has read what it wants of them.
    public func closeDescriptors() {
        closeStdin()
        if stdout >= 0 { close(stdout) }
        if stderr >= 0 && stderr != stdout { close(stderr) }
        stdout = -1
        stderr = -1
    }

    static func text(errno number: Int32) -> String { String(cString: strerror(number)) }
}

/// Which descriptor the child gets where, without two of them colliding: every source is first
/// duplicated (close-on-exec) above the highest number the child gets, so `dup2` into 0, 1, 2, 3…
/// never overwrites a source still to be used.
private struct DescriptorPlan {
    /// Child's number → a source above every target.
    var dups: [(Int32, Int32)] = []
    /// Child's number → the open flags for /dev/null.
    var nulls: [(Int32, Int32)] = []
    var highestTarget: Int32 = 2
    /// Descriptors to close once the child has started (its ends of the pipes, the duplicates).
    private var toClose: [Int32] = []

    /// Fills the plan; returns the renderer's ends of the pipes (stdin, stdout, stderr; -1: none).
    mutating func prepare(_ configuration: ChildProcess.Configuration) throws(ChildProcess.SpawnError)
        -> (Int32, Int32, Int32)
    {
        highestTarget = max(2, configuration.inherited.keys.max() ?? 2)
        var ours: (Int32, Int32, Int32) = (-1, -1, -1)
        for (target, stream) in [(Int32(0), configuration.stdin), (1, configuration.stdout), (2, configuration.stderr)] {
            switch stream {
            case .null:
                nulls.append((target, target == 0 ? O_RDONLY : O_WRONLY))
            case .inherit:
                try add(target, from: target)
            case .stdout:
                break
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard cb_sys_pipe_cloexec(&ends) == 0 else {
                    throw ChildProcess.SpawnError(description: "pipe: \(ChildProcess.text(errno: errno))")
                }
                let (childEnd, ourEnd) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                toClose.append(childEnd)
                toClose.append(ourEnd)
                _ = fcntl(ourEnd, F_SETFL, O_NONBLOCK)
                try add(target, from: childEnd)
                switch target {
                case 0: ours.0 = ourEnd
                case 1: ours.1 = ourEnd
                default: ours.2 = ourEnd
                }
            }
        }
        for (target, source) in configuration.inherited.sorted(by: { $0.key < $1.key }) where target > 2 {
            try add(target, from: source)
        }
        return ours
    }

    private mutating func add(_ target: Int32, from source: Int32) throws(ChildProcess.SpawnError) {
        let high = fcntl(source, F_DUPFD_CLOEXEC, highestTarget + 1)
        guard high >= 0 else {
            throw ChildProcess.SpawnError(description: "descriptor \(source): \(ChildProcess.text(errno: errno))")
        }
        toClose.append(high)
        dups.append((target, high))
    }

    /// The renderer's own ends stay open.
    mutating func keep(_ descriptors: [Int32]) {
        toClose.removeAll { descriptors.contains($0) }
    }

    mutating func closeAll() {
        for fd in toClose { close(fd) }
        toClose = []
    }
}
