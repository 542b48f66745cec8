// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Glibc
import Synchronization

extension ChildProcess {
    /// What a child run to its end gave.
    public struct Outcome: Sendable {
        public var termination: Termination
        /// Its stdout, at most the output limit.
        public var output: [UInt8]
        /// It wrote more than the output limit: it was killed there and `output` is the first part.
        public var outputCut: Bool
        /// The end of its stderr (at most `errorTailLimit` bytes).
        public var errors: [UInt8]
        /// It was still running at the time limit: killed.
        public var timedOut: Bool
        /// The task that ran it was cancelled: killed.
        public var cancelled: Bool

        /// Its last non-empty stderr line (for a log line), cut to 200 characters.
        public var lastErrorLine: String? {
            String(decoding: errors, as: UTF8.self).split(whereSeparator: \.isNewline).last.map { String($0.prefix(200)) }
        }
    }

    public static let errorTailLimit = 4096

    /// Runs a program to its end: `input` on its stdin (written once its limits are set), its
    /// stdout kept up to `outputLimit` bytes (past that it is killed), the end of its stderr
    /// kept; killed at `timeLimit` or when the calling task is cancelled; always reaped. The
    /// blocking waits happen on a thread of their own, never on the caller's executor.
    public static func run(_ configuration: Configuration, input: [UInt8], outputLimit: Int,
                           timeLimit: Duration) async throws(SpawnError) -> Outcome {
        var configuration = configuration
        configuration.stdin = .pipe
        configuration.stdout = .pipe
        configuration.stderr = .pipe
        let piped = configuration
        let stop = StopFlag()
        let result: Result<Outcome, SpawnError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue(label: "commentbar.child-process").async {
                    do throws(SpawnError) {
                        let child = try ChildProcess(piped)
                        continuation.resume(returning: .success(
                            child.runToEnd(input: input, outputLimit: max(outputLimit, 0), timeLimit: timeLimit, stop: stop)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            stop.set()
        }
        return try result.get()
    }

    private func runToEnd(input: [UInt8], outputLimit: Int, timeLimit: Duration, stop: StopFlag) -> Outcome {
        let deadline = ContinuousClock.now + timeLimit
        var pending = input[...]
        if pending.isEmpty { closeStdin() }
        var output: [UInt8] = [], errors: [UInt8] = []
        var outputOpen = stdout >= 0, errorsOpen = stderr >= 0
        var cut = false, timedOut = false, cancelled = false
        while outputOpen || errorsOpen {
            if stop.isSet {
                cancelled = true
                break
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                timedOut = true
                break
            }
            var fds: [pollfd] = []
            if stdin >= 0 { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
            if outputOpen { fds.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
            if errorsOpen { fds.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
            // At most 100 ms, so a cancellation or the deadline is seen soon.
            let milliseconds = Int32((min(left, .milliseconds(100)) / .milliseconds(1)).rounded(.up))
            _ = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
            if stdin >= 0 {
                let written = write(pending)
                if written < 0 {
                    closeStdin()  // it closed its input: it will not read the rest
                } else {
                    pending = pending.dropFirst(written)
                    if pending.isEmpty { closeStdin() }
                }
            }
            if outputOpen {
                outputOpen = readAvailable(stdout, into: &output, limit: outputLimit + 1)
                if output.count > outputLimit {
                    output.removeLast(output.count - outputLimit)
                    cut = true
                    break
                }
            }
            if errorsOpen {
                errorsOpen = readAvailable(stderr, into: &errors, limit: errors.count + 65536)
                if errors.count > Self.errorTailLimit { errors.removeFirst(errors.count - Self.errorTailLimit) }
            }
        }
        var ended: Termination?
        if !(cut || timedOut || cancelled) {
            // Both pipes are at their end: it is exiting, within the time left.
            ended = poll()
            while ended == nil {
                if stop.isSet {
                    cancelled = true
                    break
                }
                if ContinuousClock.now >= deadline {
                    timedOut = true
                    break
                }
                usleep(5000)
                ended = poll()
            }
        }
        if ended == nil {
            kill()
            ended = wait()
        }
        closeDescriptors()
        return Outcome(termination: ended ?? .unknown, output: output, outputCut: cut, errors: errors,
                       timedOut: timedOut, cancelled: cancelled)
    }
}

/// Set once, from any thread: the run's task was cancelled.
private final class StopFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}
