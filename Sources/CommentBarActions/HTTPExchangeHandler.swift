// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1

/// Requests and their answers on one kept-alive HTTP/1.1 connection (NIOHTTP1's codec below it
/// writes and reads the wire). Each request comes down the pipeline with the promise of its
/// answer's status; HTTP/1.1 answers in the order asked, so the oldest promise takes the next
/// whole answer (its body is read and let go). An answer late past its deadline, a close or an
/// error fails every waiting promise and closes the connection: a later answer could no longer be
/// told apart, and the link opens a new one.
final class HTTPExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Exchange
    typealias OutboundOut = HTTPClientRequestPart

    /// One request, the promise of its answer and how long the answer may take.
    struct Exchange: Sendable {
        var head: HTTPRequestHead
        var body: ByteBuffer
        var answer: EventLoopPromise<HTTPResponseStatus>
        var deadline: TimeAmount
    }

    enum Failure: Error, Equatable {
        case closed
        case noAnswer
    }

    private var waiting: [(answer: EventLoopPromise<HTTPResponseStatus>, deadline: Scheduled<Void>)] = []
    private var status: HTTPResponseStatus?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        let deadline = context.eventLoop.assumeIsolated().scheduleTask(in: exchange.deadline) { [self] in
            fail(.noAnswer, context: context)
        }
        waiting.append((exchange.answer, deadline))
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(exchange.body))), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // 1xx heads come before the answer itself.
            if head.status.code >= 200 { status = head.status }
        case .body:
            break
        case .end:
            guard let status else { return }
            self.status = nil
            guard !waiting.isEmpty else {
                // An answer to nothing asked: the connection's order is lost.
                fail(.closed, context: context)
                return
            }
            let first = waiting.removeFirst()
            first.deadline.cancel()
            first.answer.succeed(status)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failWaiting(.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.closed, context: context)
    }

    private func fail(_ failure: Failure, context: ChannelHandlerContext) {
        failWaiting(failure)
        context.close(promise: nil)
    }

    private func failWaiting(_ failure: Failure) {
        let failed = waiting
        waiting.removeAll()
        for entry in failed {
            entry.deadline.cancel()
            entry.answer.fail(failure)
        }
    }
}
