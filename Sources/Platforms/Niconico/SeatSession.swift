// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import NIOCore

/// One seat: the watch page's WebSocket, kept open for the whole watch. It sends
/// `startWatching`, answers `ping`, sends `keepSeat` as often as the `seat` message asks,
/// and reads the comments from the NDGR server its `messageServer` names.
struct SeatSession: Sendable {
    enum End: Equatable, Sendable {
        case programmeEnded
        /// Lost or closed: a new seat (and a fresh watch page) after a backoff.
        case lost(String)
        /// The server's `error` message, with its code.
        case refused(String)
    }

    let webSocketURL: String
    /// The web the comments are read through, and the server the streamer typed (if any).
    let site: WebAPI
    let problems: InputProblemLog
    let emit: @Sendable (FeedEvent) -> Void

    private enum Signal: Sendable {
        case keepSeat(every: Int)
        case view(String)
        case end(End)
    }

    func run() async -> End {
        let endpoint: FeedEndpoint
        do {
            endpoint = try FeedEndpoint.parse(webSocketURL, service: "niconico", schemes: ["wss"], namedBy: .feed)
        } catch {
            return .lost("the watch page's WebSocket URL is not a wss:// URL")
        }
        let connection: FeedConnector.MessageChannel
        do {
            connection = try await FeedConnector.connect(to: endpoint, framing: .messages, tls: try TLSSettings.makeContext(),
                                                         connectTo: try ConnectTo.fromEnvironment(),
                                                         streamerServer: site.streamerServer, problems: problems)
        } catch {
            return .lost("cannot open the seat WebSocket (\(String("\(error)".prefix(120))))")
        }
        do {
            return try await connection.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: SeatMessages.startWatching))
                let (signals, sink) = AsyncStream.makeStream(of: Signal.self)
                return await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        sink.yield(.end(await read(inbound, outbound: outbound, signals: sink)))
                    }
                    var keepingSeat = false
                    var reading = false
                    var end = End.lost("the seat WebSocket closed")
                    loop: for await signal in signals {
                        switch signal {
                        case .keepSeat(let seconds):
                            guard !keepingSeat else { continue }
                            keepingSeat = true
                            group.addTask {
                                while true {
                                    do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
                                    do { try await outbound.write(ByteBuffer(string: SeatMessages.keepSeat)) } catch { return }
                                }
                            }
                        case .view(let uri):
                            guard !reading else { continue }
                            reading = true
                            group.addTask {
                                switch await SegmentStream(viewURI: uri, site: site, problems: problems, emit: emit).run() {
                                case .programmeEnded: sink.yield(.end(.programmeEnded))
                                case .lost(let reason): sink.yield(.end(.lost(reason)))
                                }
                            }
                        case .end(let first):
                            end = first
                            break loop
                        }
                    }
                    group.cancelAll()
                    return end
                }
            }
        } catch {
            return .lost("the seat WebSocket failed (\(String("\(error)".prefix(120))))")
        }
    }

    private func read(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
                      outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
                      signals: AsyncStream<Signal>.Continuation) async -> End {
        do {
            for try await message in inbound {
                switch SeatMessages.handle(message.readableBytesView) {
                case .send(let text): try await outbound.write(ByteBuffer(string: text))
                case .keepSeat(let seconds): signals.yield(.keepSeat(every: seconds))
                case .messageServer(let uri): signals.yield(.view(uri))
                case .viewers(let count): emit(.viewers(count))
                case .programmeEnded: return .programmeEnded
                case .reconnect(let reason): return .lost(reason)
                case .refused(let code): return .refused(code)
                case .ignore: break
                case .unknown(let what): problems.note(what)
                }
            }
            return .lost("the seat WebSocket closed")
        } catch {
            return .lost("the seat WebSocket failed (\(String("\(error)".prefix(120))))")
        }
    }
}
