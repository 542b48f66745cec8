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
    @Option(help: "One of: \(ServiceRegistry.ids.joined(separator: ", "))") var service: String?
    @Option(help: "The stream id: \(ServiceRegistry.all.map { "\($0.id): \($0.streamIDHelp)" }.joined(separator: "; "))")
    var stream: String?
    @Option(help: "Endpoint override (ws://, wss://, irc://, ircs://)") var server: String = ""

    func run() async throws {
        // Options are checked here rather than by the parser so a mistake is one line, not a usage page.
        guard let service, !service.isEmpty else {
            throw argumentFailure("--service is required (\(ServiceRegistry.ids.joined(separator: ", ")))")
        }
        guard let stream else { throw argumentFailure("--stream is required (channel name, file path, ...)") }
        let feed: any CommentFeed
        do {
            feed = try ServiceRegistry.makeFeed(service: service, request: FeedRequest(streamID: stream, server: server))
        } catch {
            throw argumentFailure(error.message)
        }
        let printer = TailPrinter()
        printer.printHeader()
        let task = Task { await feed.run(emit: printer.handle) }
        let stopper = SignalStopper { task.cancel() }
        await task.value
        stopper.stop()
    }
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
        write(FeedEventJSON.encode(.recording(time: Date().timeIntervalSince1970)) + "\n", to: STDOUT_FILENO)
    }

    func handle(_ event: FeedEvent) {
        switch event {
        case .status(let status):
            write("status: \(status.label)\n", to: STDERR_FILENO)
            return
        case .relayStatus(let status):
            write("relay status: \(status.label)\n", to: STDERR_FILENO)
            return
        default:
            break
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let at = (seconds * 1000).rounded() / 1000
        write(FeedEventJSON.encode(.event(event, at: at)) + "\n", to: STDOUT_FILENO)
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
