// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import CommentBarSupport
import FoundationEssentials
import Logging
import NIOCore

/// What `serve` holds of the OneComme-compatible server (issue 39): it starts, moves and stops the
/// server as the `onecomme` and `onecomme_port` settings say (off: no socket, no thread; the wanted
/// port's machine, its retries and its status line are `LoopbackService`'s), and tells it what the
/// bar applied: rows as the bar shows them (filtered, NG words masked), deletions, bans, clears,
/// viewers, and the pin. Every call returns at once.
public final class OneCommeHook: Sendable {
    private let service: LoopbackService<OneCommeServer>
    /// Shared with the service's events (a box: they are made before `self` is).
    private let told: LockedBox<Told>

    private struct Told {
        var streams: [OneCommeStream] = []
        /// The pinned row last told (nil: none).
        var announcedPin: String?
        /// The 参加型 queue last told, and when each viewer in it was first seen there.
        var orders: [OneCommeOrder] = []
        var joined: [String: Double] = [:]
        /// The queue's newest list, not made yet: made when the server tells it (`takeOrders`).
        var pendingOrders: (@Sendable () -> [OneCommeOrder])?
        /// A later telling is scheduled (`ordersPace`); when the list was last told.
        var ordersDue = false
        var ordersToldAt = -Double.infinity

        /// Makes the pending list, if any, keeping when each viewer was first seen in it. Whether
        /// there was one.
        mutating func takeOrders(now: Double) -> Bool {
            guard let make = pendingOrders else { return false }
            pendingOrders = nil
            orders = make()
            var seen: [String: Double] = [:]
            for order in orders { seen[Told.key(order)] = joined[Told.key(order)] ?? now }
            joined = seen
            return true
        }

        /// The queue as OneComme's order items. An item's `id` is its viewer's account; one account
        /// in the queue from two streams (a viewer of both) is told apart by the stream's
        /// connection id (`commentbar-…:alice`), as OneSDK's cancel and complete calls and a
        /// template's list keys need one id per item.
        var orderItems: [OneCommeOrderItem] {
            var accounts: [String: Int] = [:]
            for order in orders { accounts[order.user, default: 0] += 1 }
            return orders.map { order in
                let stream = streams.first { $0.platform == order.platform && $0.channel == order.channel }
                var item = OneCommeOrderItem(order, stream: stream, joined: joined[Told.key(order)] ?? 0)
                if accounts[order.user, default: 0] > 1 {
                    item.id = (stream?.connectionID ?? order.platform + "/" + order.channel) + ":" + order.user
                }
                return item
            }
        }

        static func key(_ order: OneCommeOrder) -> String { "\(order.platform)\u{1F}\(order.channel)\u{1F}\(order.user)" }
    }

    /// `templates`: the user's templates folder (default `$XDG_DATA_HOME/comment-bar/templates`);
    /// `retry`: the waits between tries of a start that failed; `changed`: the status text changed.
    public init(log: Logger, templates: String? = OneCommeHook.standardTemplates,
                retry: Backoff = Backoff(base: .seconds(1), cap: .seconds(30)), changed: @escaping @Sendable () -> Void = {}) {
        let told = LockedBox(Told())
        var events = LoopbackService<OneCommeServer>.Events { port in
            try await OneCommeServer.start(port: port, templates: templates, log: log)
        }
        events.started = { (server: OneCommeServer, port: Int) in
            let (streams, orders) = told.withLock { told -> ([OneCommeStream], [OneCommeOrderItem]) in
                told.announcedPin = nil
                _ = told.takeOrders(now: WallClock.now())
                return (told.streams, told.orderItems)
            }
            server.publish(.services(streams.map(Self.service)))
            server.publish(.orders(orders))
            let vue = server.vuePath.map { "Vue from \($0)" } ?? "no vue.min.js found: templates that use Vue will not start"
            log.info("OneComme templates: on http://127.0.0.1:\(port)/templates/ (\(server.addresses.joined(separator: ", "))); \(vue)")
        }
        service = LoopbackService(name: "OneComme templates", log: log, retry: retry, events: events, changed: changed)
        self.told = told
    }

    /// `$XDG_DATA_HOME/comment-bar/templates` (else `~/.local/share/…`); nil without either variable.
    public static var standardTemplates: String? { TemplateFiles.standardRoot() }

    /// Why the server does not work, for the bar's status line (nil: it works, or is off).
    public var problems: ProblemReporter { service.problems }

    /// The running server's port (nil: off, or not started yet).
    public var port: Int? { service.port }

    /// The settings' `onecomme` and `onecomme_port`.
    public func configure(enabled: Bool, port: Int) {
        service.configure(port: enabled ? port : nil)
    }

    /// Waits for the last start or stop (tests; the end of `serve`).
    public func settle() async {
        await service.settle()
    }

    /// Turns the server off and waits until it is gone.
    public func shutdown() async {
        await service.shutdown()
    }

    /// The bar's streams, in origin order (a new feed started).
    public func streamsChanged(_ streams: [OneCommeStream]) {
        told.withLock { $0.streams = streams }
        service.server?.publish(.services(streams.map(Self.service)))
    }

    /// An event the bar applied (rows named as the bar names them), with the row it added as shown
    /// (nil: none, or filtered out), from the bar's stream `index`.
    public func heard(_ event: FeedEvent, shown: ChatLine?, index: Int) {
        guard let server = service.server else { return }
        let stream = told.withLock { $0.streams.indices.contains(index) ? $0.streams[index] : .unknown }
        switch event {
        case .comment, .gift:
            guard let shown else { return }
            server.publish(.comment(OneCommeComment(shown, stream: stream, now: WallClock.now())))
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

    /// The waiting list is told at most this often: a burst of joins (hundreds a second in a
    /// flood, each a whole list to make and send) is one list, not one per join.
    static let ordersPace = 0.1

    /// The 参加型 queue changed (issue 48): `orders`, made when it is told, is OneComme's waiting
    /// list for the templates, playing first. The first change after a quiet moment is told at
    /// once, the next ones at most every `ordersPace` (the newest then); while the server is off
    /// the list is not made at all, and the server's start tells it.
    public func ordersChanged(_ orders: @escaping @Sendable () -> [OneCommeOrder]) {
        let now = WallClock.now()
        let wait = told.withLock { told -> Double? in
            told.pendingOrders = orders
            guard !told.ordersDue else { return nil }
            told.ordersDue = true
            // Clamped: a wall clock set back must not hold the list for as long.
            return min(Self.ordersPace, max(0, told.ordersToldAt + Self.ordersPace - now))
        }
        guard let wait else { return }
        if wait == 0 {
            tellOrders()
        } else {
            NetworkLoop.loop.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) { [self] in tellOrders() }
        }
    }

    private func tellOrders() {
        let now = WallClock.now()
        let server = service.server
        let items = told.withLock { told -> [OneCommeOrderItem]? in
            told.ordersDue = false
            guard server != nil, told.takeOrders(now: now) else { return nil }
            told.ordersToldAt = now
            return told.orderItems
        }
        if let items { server?.publish(.orders(items)) }
    }

    /// The pin the bar shows now (from the frame loop): a change is told once.
    public func pinShown(_ pin: BarState.Pin?) {
        let id = pin?.line.id
        guard let streams = told.withLock({ told -> [OneCommeStream]? in
            guard told.announcedPin != id else { return nil }
            told.announcedPin = id
            return told.streams
        }), let server = service.server else { return }
        let comment = pin.map { OneCommeComment($0.line, stream: Self.stream(ofRow: $0.line.id, in: streams),
                                                now: WallClock.now()) }
        server.publish(.pinned(comment))
    }

    /// The stream a row belongs to (`RowID`).
    static func stream(ofRow id: String, in streams: [OneCommeStream]) -> OneCommeStream {
        guard streams.count > 1 else { return streams.first ?? .unknown }
        guard let index = RowID.stream(ofRow: id, among: streams.count), streams.indices.contains(index) else { return .unknown }
        return streams[index]
    }

    static func service(_ stream: OneCommeStream) -> OneCommeStream.Service {
        OneCommeStream.Service(id: stream.connectionID, name: stream.name, url: stream.url,
                               color: OneCommeComment.Color(r: Int(stream.colour.red), g: Int(stream.colour.green),
                                                            b: Int(stream.colour.blue)))
    }

    /// The running server (tests).
    var server: OneCommeServer? { service.server }
}
