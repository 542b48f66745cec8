// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import Logging
import NIOCore
import NIOWebSocket

/// The event API's state, kept on the server's one event loop (every call is made there): the
/// events' sequence, the newest comments (for `/api/comments`, the page's first view, pinning
/// and, without a chat log, search), the pin now shown, and the WebSocket clients, each sent
/// every event as one text message. It also keeps the newest moderation events (deletions,
/// bans, clears), so a client that polls `/api/comments?since=` learns what went too, and holds
/// the `/api/comments?wait=` requests until there is news for them (`NewsWaits`).
final class EventHub: PushSocketOwner {
    let eventLoop: any EventLoop
    private let log: Logger?
    /// The newest comments kept: the page shows 500; a polling tool may be a little behind.
    static let recentLimit = 1000

    /// A comment or gift as the event API gave it, with the row as the bar showed it (to pin).
    struct Recent {
        var event: ControlEvent
        var comment: ControlEvent.Comment
        var line: ChatLine
    }

    /// The newest moderation events kept: a polling client (the dock, every 500 ms) reads them
    /// long before a thousand more come.
    static let removedLimit = 1000

    private(set) var seq = 0
    /// The newest event that changed what `/api/state` gives (the pin, a stream's state or viewers).
    private(set) var stateSeq = 0
    /// The newest event that changed the poll, the queue or the giveaway (`/api/poll`, `/api/queue`,
    /// `/api/giveaway`).
    private(set) var boardsSeq = 0
    /// The newest event a `/api/comments` reader hears of: a comment kept, a removal, or
    /// `stateSeq`'s or `boardsSeq`'s.
    private(set) var newsSeq = 0
    /// The `/api/comments?wait=` requests held now.
    let waits: NewsWaits
    private var recent = CircularBuffer<Recent>(initialCapacity: 64)
    /// Deletions, bans and clears, oldest first (the newest `removedLimit`).
    private var removed = CircularBuffer<ControlEvent>(initialCapacity: 16)
    /// The newest moderation event no longer kept (0: none was dropped): a client whose `since`
    /// is below it may have missed one.
    private var removedForgotten = 0
    private var clients: [ObjectIdentifier: PushSocket] = [:]
    /// The pinned comment's event, while one is pinned.
    private(set) var pin: ControlEvent.Pin?
    /// Each stream's last connection state and viewer count, in the order they were first heard of.
    private(set) var streams: [StreamState] = []

    /// What a page opened now needs to know of a stream.
    struct StreamState: Sendable, Equatable, Codable {
        var platform: String
        var channel: String
        var state: String?
        var detail: String?
        var viewers: Int?
    }

    /// `log`: where a client dropped for falling behind is said.
    init(eventLoop: any EventLoop, log: Logger? = nil) {
        self.eventLoop = eventLoop
        self.log = log
        waits = NewsWaits(eventLoop: eventLoop)
    }

    var clientCount: Int { clients.count }
    /// Clients dropped for falling behind, so far.
    private(set) var dropped = 0

    /// Numbers the event, keeps what later requests need, and sends it to every client.
    func publish(_ body: ControlEvent.Body, line: ChatLine? = nil) {
        eventLoop.assertInEventLoop()
        seq += 1
        let event = ControlEvent(seq: seq, body: body)
        remember(event, line: line)
        noteNews(event, kept: line != nil)
        guard !clients.isEmpty, let json = event.json() else { return }
        let message = ByteBuffer(bytes: json)
        for client in clients.values { client.send(message) }
    }

    private func remember(_ event: ControlEvent, line: ChatLine?) {
        keepIfRemoval(event)
        switch event.body {
        case .comment(let comment), .gift(let comment):
            guard let line else { return }
            if recent.count >= Self.recentLimit { recent.removeFirst() }
            recent.append(Recent(event: event, comment: comment, line: line))
        // Moderation is honoured here too: what was deleted is no longer served.
        case .delete(let delete):
            forget { $0.id == delete.id }
        case .ban(let ban):
            let user = ban.user.lowercased()
            forget { $0.platform == ban.platform && $0.channel == ban.channel && $0.user.lowercased() == user }
        case .clear(let stream):
            forget { $0.platform == stream.platform && $0.channel == stream.channel }
        case .pin(let pin):
            self.pin = pin.pinned ? pin : nil
        case .viewers(let viewers):
            update(viewers.platform, viewers.channel) { $0.viewers = viewers.count }
        case .status(let status):
            update(status.platform, status.channel) {
                $0.state = status.state
                $0.detail = status.detail
            }
        case .speech, .pollStarted, .pollVote, .pollClosed, .pollDismissed, .queueJoin, .queueLeave, .queueNext,
             .queueChanged, .giveawayStarted, .giveawayEntry, .giveawayWinner, .giveawayDismissed:
            break
        case .channel(let named):
            // The stream's entry goes by its channel from now on.
            if let index = streams.firstIndex(where: { $0.platform == named.platform && $0.channel == named.stream }) {
                streams[index].channel = named.channel
            }
        }
    }

    /// An event a `/api/comments` or `/api/state` reader would see (a comment kept, a removal, a
    /// new pin or stream state), or a change of the poll, the queue or the giveaway (the dock
    /// reads them anew), is news: the requests held for it are answered. Speech wakes nobody.
    private func noteNews(_ event: ControlEvent, kept: Bool) {
        switch event.body {
        case .comment, .gift:
            guard kept else { return }
        case .delete, .ban, .clear:
            break
        case .pin, .viewers, .status, .channel:
            stateSeq = event.seq
        case .pollStarted, .pollVote, .pollClosed, .pollDismissed, .queueJoin, .queueLeave, .queueNext, .queueChanged,
             .giveawayStarted, .giveawayEntry, .giveawayWinner, .giveawayDismissed:
            boardsSeq = event.seq
        case .speech:
            return
        }
        newsSeq = event.seq
        waits.news(upTo: event.seq)
    }

    private func keepIfRemoval(_ event: ControlEvent) {
        switch event.body {
        case .delete, .ban, .clear:
            if removed.count >= Self.removedLimit { removedForgotten = removed.removeFirst().seq }
            removed.append(event)
        default:
            break
        }
    }

    /// A stream's entry (bounded: a bar reads a handful of streams).
    private func update(_ platform: String, _ channel: String, _ change: (inout StreamState) -> Void) {
        if let index = streams.firstIndex(where: { $0.platform == platform && $0.channel == channel }) {
            change(&streams[index])
        } else if streams.count < 64 {
            var entry = StreamState(platform: platform, channel: channel)
            change(&entry)
            streams.append(entry)
        }
    }

    private func forget(where matches: (ControlEvent.Comment) -> Bool) {
        guard recent.contains(where: { matches($0.comment) }) else { return }
        recent = CircularBuffer(recent.filter { !matches($0.comment) })
    }

    /// Comments and gifts after event `since` (all kept, when nil), oldest first: the newest `limit`.
    func comments(since: Int?, limit: Int) -> [ControlEvent] {
        eventLoop.assertInEventLoop()
        let after = recent.filter { $0.event.seq > (since ?? 0) }
        return after.suffix(max(0, limit)).map(\.event)
    }

    /// The deletions, bans and clears after event `since`, oldest first, and whether that is
    /// every one of them (false: some were dropped to keep memory bounded; a client then reads
    /// everything anew).
    func removals(since: Int) -> (events: [ControlEvent], complete: Bool) {
        eventLoop.assertInEventLoop()
        return (removed.filter { $0.seq > since }, since >= removedForgotten)
    }

    /// A future that succeeds at the next news after event `since`, or after `seconds`, or once
    /// `connection` closes; nil when the request should be answered now: there is news already,
    /// `since` is beyond the newest event (the client followed this server before it started again),
    /// or no more may be held (`NewsWaits.hold`).
    func holdForNews(since: Int, seconds: Int, connection: any Channel) -> EventLoopFuture<Void>? {
        eventLoop.assertInEventLoop()
        guard newsSeq <= since, since <= seq else { return nil }
        return waits.hold(since: since, until: .now() + .seconds(Int64(seconds)), connection: connection)
    }

    /// The row of the comment the event API gave as `id`, if it is among the newest.
    func line(id: String) -> ChatLine? {
        recent.last { $0.comment.id == id }?.line
    }

    /// The comment of row `id`, as the event API gave it.
    func comment(id: String) -> ControlEvent.Comment? {
        recent.last { $0.comment.id == id }?.comment
    }

    /// The newest kept comments whose text, name, nickname or user holds `text` (case folded).
    func search(_ text: String, limit: Int) -> [ControlEvent.Comment] {
        let needle = text.lowercased()
        guard !needle.isEmpty else { return [] }
        var found: [ControlEvent.Comment] = []
        for entry in recent.reversed() where found.count < limit {
            let comment = entry.comment
            if comment.text.lowercased().contains(needle) || comment.name.lowercased().contains(needle)
                || comment.user.lowercased().contains(needle) || comment.nickname?.lowercased().contains(needle) == true {
                found.append(comment)
            }
        }
        return found.reversed()
    }

    func opened(_ client: PushSocket) {
        eventLoop.assertInEventLoop()
        clients[ObjectIdentifier(client)] = client
    }

    func closed(_ client: PushSocket) {
        eventLoop.assertInEventLoop()
        clients[ObjectIdentifier(client)] = nil
    }

    /// Every client is closed with `code` and `reason` (the token changed: their credential no
    /// longer holds).
    func closeAll(code: WebSocketErrorCode, reason: String) {
        eventLoop.assertInEventLoop()
        for client in Array(clients.values) { client.close(code: code, reason: reason) }
    }

    func fellBehind(_ client: PushSocket, queued: Int) {
        log?.warning("control: an event client fell \(queued) events behind: dropped")
        closed(client)
        dropped += 1
    }
}
