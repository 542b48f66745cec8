// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import FoundationEssentials
import Logging
import Synchronization

/// What `serve` holds of the control page (issue 30): it starts, moves and stops the server
/// as the `control` and `control_port` settings say (off: no socket, no thread), hands it the
/// events the bar applied and the pin the bar shows, and opens the page in the browser. A
/// port already taken (or any start that fails) is one line in the log and a `problem` for the
/// bar's status (`ProblemReporter`), and is tried again with `Backoff` until it works or the
/// settings change; the bar keeps going. Every call returns at once.
public final class ControlHook: Sendable {
    private let log: Logger
    private let backend: any ControlBackend
    private let tokenFolder: String?
    private let problems: ProblemReporter
    private let opener: BrowserOpener
    private let options: ControlServer.Options
    private let state: Mutex<State>

    struct State {
        /// What the settings ask for (nil: off; 0: any free port, for tests).
        var wantedPort: Int?
        var server: ControlServer?
        /// The port the running server was started for (its own, unless that was 0).
        var serving: Int?
        /// The bar's streams, in origin order.
        var streams: [ControlStream] = []
        /// The pinned row last announced (nil: none).
        var announcedPin: String?
        /// The last start or stop, which the next one waits for.
        var lastChange: Task<Void, Never>?
        /// The port whose status file says we cannot bind it (nil: none).
        var saidUnbound: Int?
        /// The next try of a start that failed, while it waits.
        var retry: Task<Void, Never>?
        var backoff: Backoff
    }

    /// `backend`: the session's side; `changed`: the problem to show changed (the frame loop
    /// looks at `problem`); `tokenFolder`: where the token file is (default: `ControlToken.folder()`).
    /// `retry`: the waits between tries of a start that failed; `options`: the server's limits.
    public init(log: Logger, backend: any ControlBackend, tokenFolder: String? = nil,
                opener: BrowserOpener? = nil, retry: Backoff = Backoff(base: .seconds(1), cap: .seconds(30)),
                options: ControlServer.Options = ControlServer.Options(),
                changed: @escaping @Sendable () -> Void = {}) {
        state = Mutex(State(backoff: retry))
        self.log = log
        self.backend = backend
        self.tokenFolder = tokenFolder
        var options = options
        // Tests give a token folder of their own: the page's link files go there too.
        if options.linkFileFolder == nil { options.linkFileFolder = tokenFolder }
        self.options = options
        problems = ProblemReporter(log: log, changed: changed)
        self.opener = opener ?? BrowserOpener(log: log)
    }

    /// Why the control page does not work, for the bar's status line (nil: it works, or is off).
    public var problem: String? { problems.current }

    /// The running server's port (nil: off, or not started yet).
    public var port: Int? { state.withLock { $0.server?.port } }

    /// The settings' `control` and `control_port`: the server starts, moves or stops.
    public func configure(enabled: Bool, port: Int) {
        let wanted = enabled ? port : nil
        state.withLock { state in
            guard state.wantedPort != wanted else { return }
            state.wantedPort = wanted
            state.retry?.cancel()
            state.retry = nil
            state.backoff.reset()
            problems.forgetLogged()
            enqueue(wanted, in: &state)
        }
    }

    /// Runs `apply(wanted)` after the last start or stop.
    private func enqueue(_ wanted: Int?, in state: inout State) {
        let previous = state.lastChange
        state.lastChange = Task { [self] in
            await previous?.value
            await apply(wanted)
        }
    }

    /// A start failed: it is tried again after the backoff's wait, if the port is still wanted.
    private func retryLater(_ port: Int) {
        state.withLock { waiting in
            guard waiting.wantedPort == port else { return }
            let delay = waiting.backoff.nextDelay()
            waiting.retry = Task { [self] in
                do { try await Task.sleep(for: delay) } catch { return }
                state.withLock { state in
                    guard state.wantedPort == port, state.server == nil, !Task.isCancelled else { return }
                    state.retry = nil
                    enqueue(port, in: &state)
                }
            }
        }
    }

    /// Waits for the last start or stop to finish (tests; the end of `serve`).
    public func settle() async {
        await state.withLock { $0.lastChange }?.value
    }

    /// Turns the server off and waits until it is gone.
    public func shutdown() async {
        configure(enabled: false, port: 0)
        await settle()
    }

    private func apply(_ wanted: Int?) async {
        let (running, serving) = state.withLock { ($0.server, $0.serving) }
        if running != nil, serving == wanted { return }
        if let running {
            await running.stop()
            state.withLock {
                $0.server = nil
                $0.serving = nil
            }
            log.info("control page: off (port \(running.port) closed)")
            ControlPortStatus.remove(port: serving ?? 0, folder: tokenFolder)
        }
        // A port that was wanted but never bound (the settings moved on) is no longer said unbound.
        if let said = state.withLock({ $0.saidUnbound }), said != wanted {
            ControlPortStatus.remove(port: said, folder: tokenFolder)
            state.withLock { $0.saidUnbound = nil }
        }
        guard let port = wanted else {
            problems.report(nil)
            return
        }
        // A try of a port no longer wanted (the settings moved on) does nothing.
        guard state.withLock({ $0.wantedPort == port }) else { return }
        let token: TokenWatch
        do {
            token = try TokenWatch(folder: tokenFolder, log: log)
        } catch {
            failed("control page: \(error.description)", port: port)
            return
        }
        do {
            let server = try await ControlServer.start(port: port, token: token, backend: backend, log: log,
                                                       options: options)
            let stillWanted = state.withLock { state -> Bool in
                guard state.wantedPort == port else { return false }
                state.server = server
                state.serving = port
                // The pin shown now is announced to the new server at the next frame.
                state.announcedPin = nil
                return true
            }
            guard stillWanted else { return await server.stop() }
            log.info("control page: on port \(server.port) (\(server.addresses.joined(separator: ", ")))")
            tellStatus(bound: true, port: port)
            state.withLock { $0.backoff.reset() }
            problems.forgetLogged()
            problems.report(nil)
        } catch {
            failed(error.description, port: port)
        }
    }

    /// One log line per distinct problem (a retry that fails alike is quiet), the bar's status,
    /// and the next try.
    private func failed(_ problem: String, port: Int) {
        if problems.report(problem) { log.info("control page: trying again until it works or the settings change") }
        tellStatus(bound: false, port: port)
        retryLater(port)
    }

    /// The port's status file (`ControlPortStatus`): the dock does not poll a port we could not bind.
    private func tellStatus(bound: Bool, port: Int) {
        state.withLock { $0.saidUnbound = bound ? nil : port }
        do throws(PrivateFiles.Problem) {
            try ControlPortStatus.write(bound: bound, port: port, folder: tokenFolder)
        } catch {
            log.warning("control page: cannot tell the dock the port's state: \(error.description)")
        }
    }

    /// The bar's streams (a new feed started): events name them by the origin's index.
    public func streamsChanged(_ streams: [ControlStream]) {
        state.withLock { $0.streams = streams }
    }

    /// An event the bar applied (rows named as the bar names them), and the row it added as
    /// shown (nil: none, or filtered out).
    public func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        if case .channel(let id) = event {
            named(id, origin: origin)
            return
        }
        guard let (server, stream) = state.withLock({ state -> (ControlServer, ControlStream)? in
            guard let server = state.server else { return nil }
            let stream = state.streams.indices.contains(origin.index) ? state.streams[origin.index] : .unknown
            return (server, stream)
        }) else { return }
        guard let (body, line) = ControlEventMapping.body(for: event, shown: shown, stream: stream,
                                                          now: Date().timeIntervalSince1970) else { return }
        server.publish(body, line: line)
    }

    /// A reading hotkey was pressed (`skip`, `pause`, `resume`): the event API hears it as it
    /// hears the page's.
    public func speechAction(_ action: String) {
        state.withLock { $0.server }?.publish(.speech(.init(action: action)))
    }

    /// A stream's feed named its channel: the stream's events carry it from now on (as the viewer
    /// memory keys viewers, so `/api/viewer` takes what the events give), announced once.
    private func named(_ id: String, origin: BarState.Origin) {
        guard let channel = FeedEvent.channelID(id) else { return }
        let renamed = state.withLock { state -> (ControlServer?, ControlEvent.Channel)? in
            guard state.streams.indices.contains(origin.index), state.streams[origin.index].channel != channel else {
                return nil
            }
            let stream = state.streams[origin.index]
            state.streams[origin.index].channel = channel
            return (state.server, ControlEvent.Channel(platform: stream.platform, channel: channel, stream: stream.channel))
        }
        if let (server, body) = renamed { server?.publish(.channel(body)) }
    }

    /// The pin the bar shows now (from the frame loop): a change is announced once.
    public func pinShown(_ pin: BarState.Pin?) {
        let id = pin?.line.id
        guard let (server, previous, stream) = state.withLock({ state -> (ControlServer?, String?, ControlStream)? in
            guard state.announcedPin != id else { return nil }
            let previous = state.announcedPin
            state.announcedPin = id
            return (state.server, previous, Self.stream(ofRow: id ?? previous ?? "", in: state.streams))
        }), let server else { return }
        if let pin {
            let comment = ControlEventMapping.comment(pin.line, stream: stream, now: Date().timeIntervalSince1970)
            server.publish(.pin(.init(id: pin.line.id, pinned: true, comment: comment, until: pin.until)))
        } else if let previous {
            server.publish(.pin(.init(id: previous, pinned: false)))
        }
    }

    /// The stream a row belongs to: `N/` before its id when the bar reads several.
    static func stream(ofRow id: String, in streams: [ControlStream]) -> ControlStream {
        guard streams.count > 1 else { return streams.first ?? .unknown }
        guard let slash = id.firstIndex(of: "/"), let index = Int(id[..<slash]), streams.indices.contains(index) else {
            return .unknown
        }
        return streams[index]
    }

    /// Opens the page in the default browser (the source's "Open control page" button): a file
    /// only this user can read holds the one-time link (`PageTrampoline`), and `xdg-open` is given
    /// that file, so neither the token nor the code is in a command line (which every user sees).
    public func openPage() {
        guard let server = state.withLock({ $0.server }) else {
            log.warning("control page: it is off: tick \"Control page\" in the source's properties first")
            return
        }
        do throws(PageTrampoline.Problem) {
            opener.open(try PageTrampoline.write(link: server.pageLink(), folder: options.linkFileFolder))
        } catch {
            log.error("control page: \(error.description)")
        }
    }

    /// The running server (tests).
    var server: ControlServer? { state.withLock { $0.server } }
}
