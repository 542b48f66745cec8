// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore

/// The OneComme server's state, on its one event loop (every call is made there): the newest
/// comments (OneComme keeps 100 for its templates), the pinned one, the connections, and the
/// `/sub` clients, each sent what it subscribed to. Only the session changes it: nothing a
/// client sends reaches it.
final class OneCommeHub: PushSocketOwner {
    /// OneComme's templates get its newest 100 comments.
    static let keptComments = 100

    private let eventLoop: any EventLoop
    private(set) var comments: [OneCommeComment] = []
    private(set) var pinned: OneCommeComment?
    private(set) var services: [OneCommeStream.Service] = []
    /// The 参加型 queue, playing first (OneComme's waiting list).
    private(set) var orders: [OneCommeOrderItem] = []
    private var clients: [ObjectIdentifier: PushSocket] = [:]
    private(set) var dropped = 0

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    var clientCount: Int { clients.count }

    /// What the session tells the server.
    enum Event: Sendable {
        case comment(OneCommeComment)
        /// Rows removed: by id (a deletion), by writer (a ban), or all of one connection (a clear).
        case deleted(ids: [String])
        case deletedUser(String, connection: String)
        case cleared(connection: String)
        case pinned(OneCommeComment?)
        case services([OneCommeStream.Service])
        case viewers(connection: String, count: Int)
        /// The queue now, whole (OneComme sends its whole waiting list each time).
        case orders([OneCommeOrderItem])
    }

    func apply(_ event: Event) {
        eventLoop.assertInEventLoop()
        switch event {
        case .comment(let comment):
            // A row whose id is already there replaces it (an edited message), as on the bar.
            if let index = comments.firstIndex(where: { $0.data.id == comment.data.id }) {
                comments[index] = comment
            } else {
                comments.append(comment)
                if comments.count > Self.keptComments { comments.removeFirst(comments.count - Self.keptComments) }
            }
            send("comments", OneCommeMessage.message("comments", OneCommeMessage.Comments(comments: [comment])))
        case .deleted(let ids):
            remove { ids.contains($0.data.id) }
        case .deletedUser(let user, let connection):
            let key = user.lowercased()
            remove { $0.id == connection && $0.data.userId.lowercased() == key }
        case .cleared(let connection):
            // One stream's clear is its rows deleted; the last stream's, OneComme's `clear`.
            guard comments.contains(where: { $0.id != connection }) else {
                comments.removeAll()
                return send("clear", OneCommeMessage.bare("clear"))
            }
            remove { $0.id == connection }
        case .pinned(let comment):
            pinned = comment
            send("pinned", OneCommeMessage.message("pinned", comment))
        case .services(let list):
            services = list
            send("services", OneCommeMessage.message("services", list))
        case .viewers(let connection, let count):
            guard let index = services.firstIndex(where: { $0.id == connection }) else { return }
            services[index].meta = .init(viewer: count, isLive: true)
            send("meta", OneCommeMessage.message("meta", OneCommeMessage.Meta(service: services[index],
                                                                               meta: services[index].meta ?? .init())))
        case .orders(let list):
            guard list != orders else { return }
            orders = list
            send("waitingList", OneCommeMessage.message("waitingList", list))
        }
    }

    /// Rows removed, told as OneComme tells a deletion.
    private func remove(where matches: (OneCommeComment) -> Bool) {
        let gone = comments.filter(matches)
        guard !gone.isEmpty else { return }
        comments.removeAll(where: matches)
        send("deleted", OneCommeMessage.message("deleted", gone.map { OneCommeMessage.Deleted(id: $0.data.id, message: "deleted") }))
    }

    /// The first message a client gets.
    var connected: [UInt8] {
        OneCommeMessage.message("connected", OneCommeMessage.Connected(comments: comments, services: services,
                                                                       waitingList: orders))
    }

    /// `message` is encoded only when a client wants it (most streams have no `/sub` page open).
    private func send(_ type: String, _ message: @autoclosure () -> [UInt8]) {
        let wanting = clients.values.filter { $0.wants(type) }
        guard !wanting.isEmpty else { return }
        let buffer = ByteBuffer(bytes: message())
        for client in wanting { client.send(buffer) }
    }

    func opened(_ client: PushSocket) {
        eventLoop.assertInEventLoop()
        clients[ObjectIdentifier(client)] = client
        client.send(ByteBuffer(bytes: connected))
    }

    func closed(_ client: PushSocket) {
        clients[ObjectIdentifier(client)] = nil
    }

    func fellBehind(_ client: PushSocket, queued: Int) {
        closed(client)
        dropped += 1
    }
}
