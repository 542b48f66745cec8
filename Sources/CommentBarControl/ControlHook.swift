// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import CommentBarSupport
import FoundationEssentials
import Logging

/// What `serve` holds of the control page (issue 30): it starts, moves and stops the server
/// as the `control` and `control_port` settings say (off: no socket, no thread; the wanted port's
/// machine, its retries and its status line are `LoopbackService`'s), hands it the events the bar
/// applied and the pin the bar shows, and opens the page in the browser. The port's status file
/// (`ControlPortStatus`) tells the dock whether the renderer serves it. Every call returns at once.
public final class ControlHook: Sendable {
    private let log: Logger
    private let opener: BrowserOpener
    private let linkFileFolder: String?
    private let service: LoopbackService<ControlServer>
    /// Shared with the service's events (a box: they are made before `self` is).
    private let told: LockedBox<Told>

    struct Told {
        /// The bar's streams, in origin order.
        var streams: [ControlStream] = []
        /// The pinned row last announced (nil: none).
        var announcedPin: String?
    }

    /// `backend`: the session's side; `changed`: the problem to show changed (the frame loop
    /// looks at `problem`); `tokenFolder`: where the token file is (default: `ControlToken.folder()`).
    /// `retry`: the waits between tries of a start that failed; `options`: the server's limits.
    public init(log: Logger, backend: any ControlBackend, tokenFolder: String? = nil,
                opener: BrowserOpener? = nil, retry: Backoff = Backoff(base: .seconds(1), cap: .seconds(30)),
                options: ControlServer.Options = ControlServer.Options(),
                changed: @escaping @Sendable () -> Void = {}) {
        var options = options
        // Tests give a token folder of their own: the page's link files go there too.
        if options.linkFileFolder == nil { options.linkFileFolder = tokenFolder }
        let told = LockedBox(Told())
        var events = LoopbackService<ControlServer>.Events { [options] port throws -> ControlServer in
            let token: TokenWatch
            do throws(ControlToken.Problem) {
                token = try TokenWatch(folder: tokenFolder, log: log)
            } catch {
                throw ControlServer.StartError.noToken(error.description)
            }
            return try await ControlServer.start(port: port, token: token, backend: backend, log: log, options: options)
        }
        events.started = { (server: ControlServer, port: Int) in
            // The pin shown now is announced to the new server at the next frame.
            told.withLock { $0.announcedPin = nil }
            log.info("control page: on port \(server.port) (\(server.addresses.joined(separator: ", ")))")
            Self.tellStatus(bound: true, port: port, folder: tokenFolder, log: log)
        }
        events.failed = { Self.tellStatus(bound: false, port: $0, folder: tokenFolder, log: log) }
        // The dock no longer hears about a port the renderer has left (served, or never bound).
        events.stopped = { ControlPortStatus.remove(port: $0, folder: tokenFolder) }
        events.abandoned = { ControlPortStatus.remove(port: $0, folder: tokenFolder) }
        service = LoopbackService(name: "control page", log: log, retry: retry, events: events, changed: changed)
        self.told = told
        self.log = log
        linkFileFolder = options.linkFileFolder
        self.opener = opener ?? BrowserOpener(log: log)
    }

    /// Why the control page does not work, for the bar's status line (nil: it works, or is off).
    public var problem: String? { service.problems.current }

    /// The running server's port (nil: off, or not started yet).
    public var port: Int? { service.port }

    /// The settings' `control` and `control_port`: the server starts, moves or stops.
    public func configure(enabled: Bool, port: Int) {
        service.configure(port: enabled ? port : nil)
    }

    /// Waits for the last start or stop to finish (tests; the end of `serve`).
    public func settle() async {
        await service.settle()
    }

    /// Turns the server off and waits until it is gone.
    public func shutdown() async {
        await service.shutdown()
    }

    /// The port's status file (`ControlPortStatus`): the dock does not poll a port we could not bind.
    private static func tellStatus(bound: Bool, port: Int, folder: String?, log: Logger) {
        do throws(PrivateFiles.Problem) {
            try ControlPortStatus.write(bound: bound, port: port, folder: folder)
        } catch {
            log.warning("control page: cannot tell the dock the port's state: \(error.description)")
        }
    }

    /// The bar's streams (a new feed started): events name them by the origin's index.
    public func streamsChanged(_ streams: [ControlStream]) {
        told.withLock { $0.streams = streams }
    }

    /// An event the bar applied (rows named as the bar names them), and the row it added as
    /// shown (nil: none, or filtered out).
    public func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        if case .channel(let id) = event {
            named(id, origin: origin)
            return
        }
        guard let server = service.server, let stream = told.withLock({ state -> ControlStream? in
            let stream = state.streams.indices.contains(origin.index) ? state.streams[origin.index] : .unknown
            return stream
        }) else { return }
        guard let (body, line) = ControlEventMapping.body(for: event, shown: shown, stream: stream,
                                                          now: WallClock.now()) else { return }
        server.publish(body, line: line)
    }

    /// A reading hotkey was pressed (`skip`, `pause`, `resume`): the event API hears it as it
    /// hears the page's.
    public func speechAction(_ action: String) {
        service.server?.publish(.speech(.init(action: action)))
    }

    /// A poll started, counted a vote or closed (the session's `PollBoard`), a viewer joined or
    /// left the queue or was called (`QueueBoard`), entered or won a giveaway (`GiveawayBoard`):
    /// the event API hears it.
    public func participationChanged(_ body: ControlEvent.Body) {
        service.server?.publish(body)
    }

    /// A stream's feed named its channel: the stream's events carry it from now on (as the viewer
    /// memory keys viewers, so `/api/viewer` takes what the events give), announced once.
    private func named(_ id: String, origin: BarState.Origin) {
        guard let channel = FeedEvent.channelID(id) else { return }
        let renamed = told.withLock { state -> ControlEvent.Channel? in
            guard state.streams.indices.contains(origin.index), state.streams[origin.index].channel != channel else {
                return nil
            }
            let stream = state.streams[origin.index]
            state.streams[origin.index].channel = channel
            return ControlEvent.Channel(platform: stream.platform, channel: channel, stream: stream.channel)
        }
        if let renamed { service.server?.publish(.channel(renamed)) }
    }

    /// The pin the bar shows now (from the frame loop): a change is announced once.
    public func pinShown(_ pin: BarState.Pin?) {
        let id = pin?.line.id
        guard let (previous, stream) = told.withLock({ state -> (String?, ControlStream)? in
            guard state.announcedPin != id else { return nil }
            let previous = state.announcedPin
            state.announcedPin = id
            return (previous, Self.stream(ofRow: id ?? previous ?? "", in: state.streams))
        }), let server = service.server else { return }
        if let pin {
            let comment = ControlEventMapping.comment(pin.line, stream: stream, now: WallClock.now())
            server.publish(.pin(.init(id: pin.line.id, pinned: true, comment: comment, until: pin.until)))
        } else if let previous {
            server.publish(.pin(.init(id: previous, pinned: false)))
        }
    }

    /// The stream a row belongs to (`RowID`).
    static func stream(ofRow id: String, in streams: [ControlStream]) -> ControlStream {
        guard streams.count > 1 else { return streams.first ?? .unknown }
        guard let index = RowID.stream(ofRow: id, among: streams.count), streams.indices.contains(index) else { return .unknown }
        return streams[index]
    }

    /// Opens the page in the default browser (the source's "Open control page" button): a file
    /// only this user can read holds the one-time link (`PageTrampoline`), and `xdg-open` is given
    /// that file, so neither the token nor the code is in a command line (which every user sees).
    public func openPage() {
        guard let server = service.server else {
            log.warning("control page: it is off: tick \"Control page\" in the source's properties first")
            return
        }
        do throws(PageTrampoline.Problem) {
            opener.open(try PageTrampoline.write(link: server.pageLink(), folder: linkFileFolder))
        } catch {
            log.error("control page: \(error.description)")
        }
    }

    /// The running server (tests).
    var server: ControlServer? { service.server }
}
