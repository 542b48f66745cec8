// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1

/// Requests and their answers on one kept-alive HTTP/1.1 connection (NIOHTTP1's codec below it
/// writes and reads the wire). Each request comes down the pipeline with the promise of its
/// answer's status; HTTP/1.1 answers in the order asked, so the oldest promise takes the next
/// whole answer (its body is read and let go). An answer late past its deadline, a close or an
/// error fails every waiting promise and closes the connection: a later answer could no longer be
/// told apart, and the link opens a new one.
///
/// Answers are read when asked for (the channel's `autoRead` is off): when another action waits
/// (`ReadAnswers`, sent down the pipeline by the link; asked before the request is written, the
/// request's answer is read at once), else within `settle` of the request (sooner when its own
/// deadline is nearer). An answer
/// comes a fraction of a millisecond after its request, when the event loop has gone back to
/// sleep: read at once, each would wake the loop's thread once more (about 0.14 ms of CPU here,
/// more than the rest of the action). Read with the next action's hand-over, it costs no wake of
/// its own; `settle` bounds how late a lone action's answer (its failure) is known. A close is
/// seen at once all the same (NIO always watches for the peer's end of the stream).
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

    /// Read the answers waiting now (an outbound user event: another action waits to be sent).
    struct ReadAnswers: Sendable {}

    enum Failure: Error, Equatable {
        case closed
        case noAnswer
    }

    /// How long after a request its answer is read at the latest when nothing asks for it sooner.
    let settle: TimeAmount
    private var waiting: [(answer: EventLoopPromise<HTTPResponseStatus>, deadline: Scheduled<Void>)] = []
    private var status: HTTPResponseStatus?
    /// A read was asked of the channel and the answers are not all in yet.
    private var reading = false
    private var settleRead: (task: Scheduled<Void>, at: NIODeadline)?
    /// Another action waited before this request was written: its answer is read at once.
    private var readAtNextWrite = false

    init(settle: TimeAmount) {
        self.settle = settle
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        let loop = context.eventLoop.assumeIsolated()
        let deadline = loop.scheduleTask(in: exchange.deadline) { [self] in
            fail(.noAnswer, context: context)
        }
        waiting.append((exchange.answer, deadline))
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(exchange.body))), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
        if readAtNextWrite {
            readAtNextWrite = false
            readAnswers(context: context)
        } else {
            // Read by `settle`, and by half the request's own deadline when that is sooner (the
            // connection took most of it): an answer sitting unread must not be taken for none.
            // One timer at a time, not cancelled when an answer is read sooner (it may read a later
            // request's answer early, which costs nothing): a timer per action is spared.
            let at = NIODeadline.now() + min(settle, TimeAmount.nanoseconds(exchange.deadline.nanoseconds / 2))
            if let pending = settleRead, pending.at <= at { return }
            settleRead?.task.cancel()
            settleRead = (loop.scheduleTask(deadline: at) { [self] in
                settleRead = nil
                readAnswers(context: context)
            }, at)
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ReadAnswers else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        if waiting.isEmpty {
            readAtNextWrite = true
        } else {
            readAnswers(context: context)
        }
        promise?.succeed(())
    }

    private func readAnswers(context: ChannelHandlerContext) {
        guard !waiting.isEmpty, !reading else { return }
        reading = true
        context.read()
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

    func channelReadComplete(context: ChannelHandlerContext) {
        // An answer not whole yet: read on until it is.
        reading = !waiting.isEmpty
        if reading { context.read() }
        context.fireChannelReadComplete()
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
        settleRead?.task.cancel()
        settleRead = nil
        for entry in failed {
            entry.deadline.cancel()
            entry.answer.fail(failure)
        }
    }
}
