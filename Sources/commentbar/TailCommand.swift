// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import ArgumentParser
import CommentBarCore
import CommentBarFeeds
import CommentBarServices
import CommentBarServe
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// `commentbar tail`: prints a feed's normalized events as JSON lines on stdout, in the
/// schema the `file` service replays (a `recording` header, then events with `at`), and
/// its status changes on stderr. Ends cleanly on SIGINT (or SIGTERM).
struct Tail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a feed's events as JSON lines, as the file service replays them.")
    @Option(help: "One of: \(ServiceRegistry.product.ids.joined(separator: ", ")); not needed when --stream is a URL or service:id")
    var service: String?
    @Option(help: ArgumentHelp(
        "A stream URL (the service is detected), service:id, or with --service the stream id: \(ServiceRegistry.all.map { "\($0.id): \($0.streamIDHelp.en)" }.joined(separator: "; ")). Give several to merge them.",
        valueName: "stream"))
    var stream: [String] = []
    @Option(help: "Endpoint override (ws://, wss://, irc://, ircs://; https:// for YouTube)") var server: String = ""

    /// The streams to read, from the options; a mistake is one line, not a usage page.
    func streamPlan() throws(TailArgumentError) -> StreamPlan {
        guard !stream.isEmpty else {
            throw TailArgumentError("--stream is required (a stream URL, service:id, or with --service a channel name, file path, ...)")
        }
        var settings = BarSettings()
        if let service, !service.isEmpty {
            guard stream.count == 1 else { throw TailArgumentError("--service takes one --stream; give several as URLs or service:id") }
            settings.service = service
            settings.streamID = stream[0]
            settings.server = server
        } else {
            guard server.isEmpty || stream.count == 1 else { throw TailArgumentError("--server needs exactly one --stream") }
            settings.feeds = stream
        }
        var plan = StreamPlan(settings: settings)
        if let problem = plan.problems.first { throw TailArgumentError(problem) }
        if !server.isEmpty, settings.feeds.count == 1, let address = try? StreamAddress.parse(stream[0], table: ServiceRegistry.product.streamURLs) {
            // `--stream URL --server X`: the URL picks the service, the server overrides its endpoint.
            settings = BarSettings()
            (settings.service, settings.streamID, settings.server) = (address.service, address.streamID, server)
            plan = StreamPlan(settings: settings)
            if let problem = plan.problems.first { throw TailArgumentError(problem) }
        }
        return plan
    }

    func run() async throws {
        // Options are checked here rather than by the parser so a mistake is one line, not a usage page.
        let plan: StreamPlan
        do {
            plan = try streamPlan()
        } catch {
            throw argumentFailure(error.message)
        }
        let printer = TailPrinter()
        printer.printHeader()
        let streams = plan.streams
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for stream in streams {
                    let name = streams.count > 1 ? stream.name : nil
                    group.addTask { await stream.feed.run { printer.handle($0, feed: name) } }
                }
            }
        }
        let stopper = SignalStopper { task.cancel() }
        await task.value
        stopper.stop()
    }
}

/// A mistake in `tail`'s options.
struct TailArgumentError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A bad argument: one line on stderr and exit status 2, no usage page or stack trace
/// (ArgumentParser prints nothing for an `ExitCode`).
private func argumentFailure(_ message: String) -> ExitCode {
    POSIXIO.writeAll("commentbar tail: \(message)\n", fd: STDERR_FILENO)
    return ExitCode(2)
}

/// Writes each event as it comes: one JSON line, written straight to the file descriptor
/// (no buffering to flush), with `at` = seconds since tail started.
final class TailPrinter: Sendable {
    private let started = ContinuousClock.now
    private let lock = Mutex(())

    func printHeader() {
        write(FeedEventJSON.encode(.recording(time: WallClock.now())) + "\n", to: STDOUT_FILENO)
    }

    /// `feed`: the stream's name when tail reads several (a `feed` field, and named status lines).
    func handle(_ event: FeedEvent, feed: String? = nil) {
        let named = feed.map { " (\($0))" } ?? ""
        switch event {
        case .status(let status):
            write("status\(named): \(TextSanitizer.escapedForTerminal(status.sanitized.label))\n", to: STDERR_FILENO)
            return
        case .relayStatus(let status):
            write("relay status\(named): \(TextSanitizer.escapedForTerminal(status.sanitized.label))\n", to: STDERR_FILENO)
            return
        default:
            break
        }
        let seconds = (ContinuousClock.now - started).inSeconds
        let at = (seconds * 1000).rounded() / 1000
        // JSON escapes C0 controls itself; C1 controls and bidi controls are escaped here, as
        // `\uXXXX`, so the line is the same JSON and no terminal escape sequence passes.
        write(TextSanitizer.escapedForTerminal(FeedEventJSON.encode(.event(event, at: at), feed: feed), json: true) + "\n",
              to: STDOUT_FILENO)
    }

    private func write(_ text: String, to fd: Int32) {
        lock.withLock { _ in POSIXIO.writeAll(text, fd: fd) }
    }
}

/// Cancels the feed on SIGINT or SIGTERM; if the feed is slow to stop (a connect in
/// progress), exits after a short grace period anyway.
final class SignalStopper {
    private let sources: [any DispatchSourceSignal]

    init(onSignal: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                onSignal()
                DispatchQueue.global().asyncAfter(deadline: .now() + 3) { exit(0) }
            }
            source.resume()
            return source
        }
    }

    func stop() {
        for source in sources { source.cancel() }
    }
}
