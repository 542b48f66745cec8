// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import FoundationEssentials
import Logging
import Synchronization

/// What `serve` holds of the OneComme-compatible server (issue 39): it starts, moves and stops the
/// server as the `onecomme` and `onecomme_port` settings say (off: no socket, no thread), and tells
/// it what the bar applied: rows as the bar shows them (filtered, NG words masked), deletions, bans,
/// clears, viewers, and the pin. A port already taken is a line on the bar's status and in the log
/// (`problems`), tried again with `Backoff` while the settings name it. Every call returns at once.
public final class OneCommeHook: Sendable {
    public let problems: ProblemReporter
    private let log: Logger
    private let templates: String?
    private let state: Mutex<State>

    private struct State {
        var wantedPort: Int?
        var server: OneCommeServer?
        var streams: [OneCommeStream] = []
        /// The pinned row last told (nil: none).
        var announcedPin: String?
        /// The last start or stop, which the next one waits for, and a start's next try.
        var lastChange: Task<Void, Never>?
        var retry: Task<Void, Never>?
        var backoff: Backoff
    }

    /// `templates`: the user's templates folder (default `$XDG_DATA_HOME/comment-bar/templates`);
    /// `retry`: the waits between tries of a start that failed; `changed`: the status text changed.
    public init(log: Logger, templates: String? = OneCommeHook.standardTemplates,
                retry: Backoff = Backoff(base: .seconds(1), cap: .seconds(30)), changed: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.templates = templates
        state = Mutex(State(backoff: retry))
        problems = ProblemReporter(log: log, level: .error, changed: changed)
    }

    /// `$XDG_DATA_HOME/comment-bar/templates` (else `~/.local/share/…`); nil without either variable.
    public static var standardTemplates: String? { TemplateFiles.standardRoot() }

    /// The running server's port (nil: off, or not started yet).
    public var port: Int? { state.withLock { $0.server?.port } }

    /// The settings' `onecomme` and `onecomme_port`.
    public func configure(enabled: Bool, port: Int) {
        let wanted = enabled ? port : nil
        let changed = state.withLock { state -> Bool in
            guard state.wantedPort != wanted else { return false }
            state.wantedPort = wanted
            state.retry?.cancel()
            state.retry = nil
            state.backoff.reset()
            enqueue(in: &state)
            return true
        }
        if changed { problems.forgetLogged() }
    }

    private func enqueue(in state: inout State) {
        let previous = state.lastChange
        state.lastChange = Task { [self] in
            await previous?.value
            await apply()
        }
    }

    /// Waits for the last start or stop (tests; the end of `serve`).
    public func settle() async {
        await state.withLock { $0.lastChange }?.value
    }

    /// Turns the server off and waits until it is gone.
    public func shutdown() async {
        configure(enabled: false, port: 0)
        await settle()
    }

    private func apply() async {
        let (wanted, running) = state.withLock { ($0.wantedPort, $0.server) }
        if let running, running.port == wanted { return }
        if let running {
            await running.stop()
            state.withLock { $0.server = nil }
            log.info("OneComme templates: off (port \(running.port) closed)")
        }
        guard let port = wanted else {
            problems.report(nil)
            return
        }
        do {
            let server = try await OneCommeServer.start(port: port, templates: templates, log: log)
            let streams = state.withLock { state -> [OneCommeStream]? in
                guard state.wantedPort == port else { return nil }
                state.server = server
                state.announcedPin = nil
                state.backoff.reset()
                return state.streams
            }
            guard let streams else { return await server.stop() }
            server.publish(.services(streams.map(Self.service)))
            let vue = server.vuePath.map { "Vue from \($0)" } ?? "no vue.min.js found: templates that use Vue will not start"
            log.info("OneComme templates: on http://127.0.0.1:\(port)/templates/ (\(server.addresses.joined(separator: ", "))); \(vue)")
            problems.report(nil)
        } catch {
            problems.report("\(error.description); trying again until it is free or the settings change")
            retryLater(port)
        }
    }

    private func retryLater(_ port: Int) {
        state.withLock { waiting in
            guard waiting.wantedPort == port else { return }
            let delay = waiting.backoff.nextDelay()
            waiting.retry = Task { [self] in
                do { try await Task.sleep(for: delay) } catch { return }
                state.withLock { state in
                    guard state.wantedPort == port, state.server == nil, !Task.isCancelled else { return }
                    state.retry = nil
                    enqueue(in: &state)
                }
            }
        }
    }

    /// The bar's streams, in origin order (a new feed started).
    public func streamsChanged(_ streams: [OneCommeStream]) {
        let server = state.withLock { state -> OneCommeServer? in
            state.streams = streams
            return state.server
        }
        server?.publish(.services(streams.map(Self.service)))
    }

    /// An event the bar applied (rows named as the bar names them), with the row it added as shown
    /// (nil: none, or filtered out), from the bar's stream `index`.
    public func heard(_ event: FeedEvent, shown: ChatLine?, index: Int) {
        guard let (server, stream) = state.withLock({ state -> (OneCommeServer, OneCommeStream)? in
            guard let server = state.server else { return nil }
            return (server, state.streams.indices.contains(index) ? state.streams[index] : .unknown)
        }) else { return }
        switch event {
        case .comment, .gift:
            guard let shown else { return }
            server.publish(.comment(OneCommeComment(shown, stream: stream, now: Date().timeIntervalSince1970)))
        case .delete(let id):
            server.publish(.deleted(ids: [id]))
        case .deleteUser(let user):
            server.publish(.deletedUser(user, connection: stream.connectionID))
        case .clear:
            server.publish(.cleared(connection: stream.connectionID))
        case .viewers(let count):
            server.publish(.viewers(connection: stream.connectionID, count: min(max(count, 0), FeedEventJSON.maxCount)))
        case .start, .mic, .avatar, .background, .status, .relayStatus, .channel:
            break
        }
    }

    /// The pin the bar shows now (from the frame loop): a change is told once.
    public func pinShown(_ pin: BarState.Pin?) {
        let id = pin?.line.id
        guard let (server, streams) = state.withLock({ state -> (OneCommeServer?, [OneCommeStream])? in
            guard state.announcedPin != id else { return nil }
            state.announcedPin = id
            return (state.server, state.streams)
        }), let server else { return }
        let comment = pin.map { OneCommeComment($0.line, stream: Self.stream(ofRow: $0.line.id, in: streams),
                                                now: Date().timeIntervalSince1970) }
        server.publish(.pinned(comment))
    }

    /// The stream a row belongs to: `N/` before its id when the bar reads several.
    static func stream(ofRow id: String, in streams: [OneCommeStream]) -> OneCommeStream {
        guard streams.count > 1 else { return streams.first ?? .unknown }
        guard let slash = id.firstIndex(of: "/"), let index = Int(id[..<slash]), streams.indices.contains(index) else {
            return .unknown
        }
        return streams[index]
    }

    static func service(_ stream: OneCommeStream) -> OneCommeStream.Service {
        OneCommeStream.Service(id: stream.connectionID, name: stream.name, url: stream.url,
                               color: OneCommeComment.Color(r: Int(stream.colour.red), g: Int(stream.colour.green),
                                                            b: Int(stream.colour.blue)))
    }

    /// The running server (tests).
    var server: OneCommeServer? { state.withLock { $0.server } }
}
