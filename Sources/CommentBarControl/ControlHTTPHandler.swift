// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The HTTP side of one connection: gathers a request (its body bounded: larger is a 413 and the
/// connection closes without reading on), has `ControlRoutes` answer it off the event loop, and
/// writes the answer. NIO's pipeline handler keeps pipelined requests in order. It tells the
/// request deadline when a request came whole, and the slots when the connection proved itself.
final class ControlHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Commands are small JSON objects.
    static let maxBodyBytes = 64 * 1024

    private let routes: ControlRoutes
    private let deadline: RequestDeadline
    private let slots: ConnectionSlots
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    /// The request was refused before its end: the rest of it is ignored.
    private var refused = false
    /// Requests being answered: a connection whose request is held for news (`/api/comments?wait=`)
    /// is not idle.
    private var answering = 0

    init(routes: ControlRoutes, deadline: RequestDeadline, slots: ConnectionSlots) {
        self.routes = routes
        self.deadline = deadline
        self.slots = slots
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = context.channel.allocator.buffer(capacity: 0)
            refused = false
            let declared = requestHead.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0
            if declared > Self.maxBodyBytes { refuseTooLarge(context: context) }
        case .body(var part):
            guard !refused else { return }
            guard body.readableBytes + part.readableBytes <= Self.maxBodyBytes else {
                refuseTooLarge(context: context)
                return
            }
            body.writeBuffer(&part)
        case .end:
            deadline.requestEnded()
            guard !refused, let head else { return }
            self.head = nil
            let request = ControlRequest(head: head, body: body, connection: context.channel)
            let routes = self.routes
            let keepAlive = head.isKeepAlive
            let version = head.version
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let slots = self.slots
            let channel = context.channel
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            answering += 1
            context.eventLoop.makeFutureWithTask { await routes.respond(to: request) { slots.proven(channel) } }
                .assumeIsolated().whenSuccess { response in
                    handler.value.answering -= 1
                    if response.authenticated { slots.proven(bound.value.channel) }
                    Self.write(response, version: version, keepAlive: keepAlive, context: bound.value)
                }
        }
    }

    private func refuseTooLarge(context: ChannelHandlerContext) {
        refused = true
        var response = ControlResponse.error(.payloadTooLarge, "a request body has at most \(Self.maxBodyBytes) bytes")
        response.closesConnection = true
        response.headers += ControlRoutes.commonHeaders(host: nil)
        Self.write(response, version: head?.version ?? .http1_1, keepAlive: false, context: context)
    }

    static func write(_ response: ControlResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        let closes = response.closesConnection || !keepAlive
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        if closes { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: version, status: response.status, headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        if !response.body.isEmpty {
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        }
        let sent = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
        if closes { sent.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }

    /// A request held for news on this connection lets go of its place (once per connection, not
    /// a callback per request on the connection's close).
    func channelInactive(context: ChannelHandlerContext) {
        if answering > 0 {
            let connection = ObjectIdentifier(context.channel)
            routes.hub.execute { $0.waits.closed(connection) }
        }
        context.fireChannelInactive()
    }

    /// A connection idle for `ControlServer.idleTimeout` is closed.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if answering == 0 { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A WebSocket request the checks refused comes on as an HTTP request, answered with the reason.
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }
}
