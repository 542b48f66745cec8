// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The HTTP side of one connection. Read-only: a method the route table does not take is 405 at
/// once (`OneCommeRoutes.refusal`: JSON for an API route, for a template's write to fail at once)
/// and a request with a body 413, each closing the connection without reading on. The Host is checked before anything is
/// looked up (`LoopbackAccess`); the answer is made by `OneCommeRoutes` (files off the event loop)
/// and written in order. A request that came whole ends its deadline and earns its connection a
/// kept slot (`ConnectionSlots`): a socket that trickles a request never does.
final class OneCommeHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: OneCommeRoutes
    private let deadline: RequestDeadline
    private let slots: ConnectionSlots
    private var head: HTTPRequestHead?
    /// The request was answered before its end: the rest of it is ignored.
    private var refused = false

    init(routes: OneCommeRoutes, deadline: RequestDeadline, slots: ConnectionSlots) {
        self.routes = routes
        self.deadline = deadline
        self.slots = slots
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
            refused = false
            if let answer = OneCommeRoutes.refusal(method: request.method, uri: request.uri) {
                refuse(answer, context: context)
            } else if request.headers.contains(name: "Transfer-Encoding")
                        || (request.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0) > 0 {
                refuse(.text(.payloadTooLarge, "This server takes no request bodies.", closes: true), context: context)
            }
        case .body:
            return
        case .end:
            deadline.requestEnded()
            guard !refused, let request = head else { return }
            head = nil
            slots.proven(context.channel)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            routes.respond(to: request, on: context.eventLoop).assumeIsolated().whenSuccess { response in
                Self.write(response, for: request, context: bound.value)
            }
        }
    }

    private func refuse(_ response: OneCommeResponse, context: ChannelHandlerContext) {
        refused = true
        Self.write(response, for: head, context: context)
    }

    static func write(_ response: OneCommeResponse, for request: HTTPRequestHead?, context: ChannelHandlerContext) {
        let closes = response.closesConnection || !(request?.isKeepAlive ?? false)
        var headers = HTTPHeaders((OneCommeResponse.commonHeaders + response.headers).map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        if closes { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: request?.version ?? .http1_1, status: response.status, headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        if request?.method != .HEAD, !response.body.isEmpty {
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        }
        let sent = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
        if closes { sent.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
    }

    /// A connection idle for the server's timeout is closed.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A WebSocket request the checks refused goes on as an HTTP request, answered with the reason.
        if error is NIOWebSocketUpgradeError { return }
        // A request head over the limit, or not HTTP: answered once, then closed.
        if error is HTTPParserError, !refused {
            refuse(.text(.badRequest, "Bad or too large request.", closes: true), context: context)
            return
        }
        context.close(promise: nil)
    }
}
