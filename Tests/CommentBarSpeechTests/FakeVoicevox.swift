// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A VOICEVOX engine on loopback, speaking HTTP/1.1 through NIOHTTP1: `/audio_query` answers a
/// small query; `/synthesis` answers as the test asks, a hostile answer included. It counts the
/// synthesis requests and the body bytes the client took (a write completes only as the client
/// reads, beyond the sockets' buffers).
final class FakeVoicevox: Sendable {
    enum Synthesis: Sendable {
        case wav([UInt8])
        /// A WAV header (8 kHz mono, the data's size left open) then silence, `total` bytes in all,
        /// with a Content-Length or chunked.
        case huge(total: Int, declared: Bool)
        /// The head (a Content-Length of 1 MB), then one byte every `interval`.
        case drip(interval: Duration)
        /// Nothing at all: the request is taken and never answered.
        case stall
    }

    final class Counts: Sendable {
        let requests = Mutex(0)
        let bodyBytesSent = Mutex(0)
    }

    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    let port: Int
    let counts: Counts
    private let task: Task<Void, Never>
    private let channel: any Channel

    init(_ synthesis: Synthesis) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
        port = server.channel.localAddress?.port ?? 0
        channel = server.channel
        let counts = Counts()
        self.counts = counts
        task = Task {
            try? await server.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        group.addTask { try? await Self.serve(connection, synthesis, counts) }
                    }
                }
            }
        }
    }

    func stop() async {
        try? await channel.close()
        task.cancel()
        await task.value
    }

    private static func serve(_ connection: Connection, _ synthesis: Synthesis, _ counts: Counts) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var path = ""
            for try await part in inbound {
                switch part {
                case .head(let head):
                    path = head.uri
                case .body:
                    break
                case .end:
                    if path.hasPrefix("/audio_query") {
                        try await answer(outbound, Array(#"{"speedScale":1.0,"outputSamplingRate":24000}"#.utf8))
                    } else {
                        counts.requests.withLock { $0 += 1 }
                        try await synthesize(outbound, synthesis, counts)
                    }
                }
            }
        }
    }

    private static func head(_ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>, length: Int?) async throws {
        var headers = HTTPHeaders()
        if let length { headers.add(name: "Content-Length", value: "\(length)") }
        try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
    }

    private static func answer(_ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>, _ body: [UInt8]) async throws {
        try await head(outbound, length: body.count)
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
        try await outbound.write(.end(nil))
    }

    private static func synthesize(_ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
                                   _ synthesis: Synthesis, _ counts: Counts) async throws {
        switch synthesis {
        case .wav(let bytes):
            try await answer(outbound, bytes)
        case .huge(let total, let declared):
            try await head(outbound, length: declared ? total : nil)
            var header = wavHeader(rate: 8000, dataBytes: 0xFFFF_FFF0)
            var left = total
            while left > 0 {
                let size = min(left, 65536)
                let chunk = header.isEmpty ? [UInt8](repeating: 0, count: size) : header
                header = []
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: chunk))))
                counts.bodyBytesSent.withLock { $0 += chunk.count }
                left -= chunk.count
            }
            try await outbound.write(.end(nil))
        case .drip(let interval):
            try await head(outbound, length: 1_000_000)
            for _ in 0..<1_000_000 {
                try await Task.sleep(for: interval)
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: [0]))))
                counts.bodyBytesSent.withLock { $0 += 1 }
            }
        case .stall:
            try await Task.sleep(for: .seconds(3600))
        }
    }

    /// A 16-bit mono WAV header whose data chunk says `dataBytes`.
    static func wavHeader(rate: Int, dataBytes: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        func put32(_ value: UInt32) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
        func put16(_ value: UInt16) { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        out += Array("RIFF".utf8); put32(dataBytes &+ 36); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); put32(16); put16(1); put16(1)
        put32(UInt32(rate)); put32(UInt32(rate * 2)); put16(2); put16(16)
        out += Array("data".utf8); put32(dataBytes)
        return out
    }
}
