// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore
import SwiftProtobuf

/// Cuts a byte stream of length-delimited protobuf messages (each a varint length, then
/// that many bytes) into whole messages, with a bound: SwiftProtobuf's own
/// `AsyncMessageSequence` accepts lengths up to 2 GiB and allocates up to 16 MiB before the
/// bytes arrive, so a hostile stream could hold that much per connection. Here a length over
/// `maxMessageBytes` is refused as soon as its prefix is read, and nothing more is buffered
/// than one message and one network chunk. The prefix and the messages are decoded by
/// SwiftProtobuf; this only finds where each message ends.
struct DelimitedFrameSplitter {
    /// NDGR messages are comments and small states: a few KiB. Far above, far below harm.
    static let maxMessageBytes = 4 << 20
    /// A varint is at most 10 bytes.
    static let maxPrefixBytes = 10

    enum Failure: Error, Equatable, CustomStringConvertible {
        case oversized(UInt64)
        case badPrefix

        var description: String {
            switch self {
            case .oversized(let length): return "a message of \(length) bytes is over the \(maxMessageBytes >> 20) MiB limit"
            case .badPrefix: return "a message length that is not a varint"
            }
        }
    }

    private var buffer = ByteBuffer()

    /// Bytes received but not yet part of a whole message.
    var pendingBytes: Int { buffer.readableBytes }

    mutating func append(_ chunk: [UInt8]) {
        buffer.writeBytes(chunk)
    }

    /// The next whole message's bytes, nil when more bytes are needed, or why the stream is unusable.
    mutating func nextMessage() throws(Failure) -> [UInt8]? {
        let view = buffer.readableBytesView
        // The prefix ends at the first byte without the continuation bit (0x80).
        guard let last = view.prefix(Self.maxPrefixBytes).firstIndex(where: { $0 & 0x80 == 0 }) else {
            if view.count >= Self.maxPrefixBytes { throw .badPrefix }
            return nil
        }
        let prefix = Array(view[view.startIndex...last])
        let length = try Self.length(prefix)
        guard length <= UInt64(Self.maxMessageBytes) else { throw .oversized(length) }
        guard view.count - prefix.count >= Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: prefix.count)
        let message = buffer.readBytes(length: Int(length)) ?? []
        if buffer.readerIndex >= 1 << 16 { buffer.discardReadBytes() }
        return message
    }

    /// The varint's value, decoded by SwiftProtobuf: a varint preceded by the tag byte 0x08
    /// is field 1 of a `UInt64Value`, so no varint arithmetic is written here.
    static func length(_ prefix: [UInt8]) throws(Failure) -> UInt64 {
        do {
            return try Google_Protobuf_UInt64Value(serializedBytes: [0x08] + prefix).value
        } catch {
            throw .badPrefix
        }
    }
}

/// Reads a streamed HTTP body of length-delimited messages of one type.
enum DelimitedMessageReader {
    enum End: Equatable {
        /// The body ended between messages.
        case finished
        /// The body ended inside a message.
        case cutOff
        /// The consumer asked to stop.
        case stopped
    }

    static let decodingOptions: BinaryDecodingOptions = {
        var options = BinaryDecodingOptions()
        options.discardUnknownFields = true
        options.messageDepthLimit = 32
        return options
    }()

    /// Passes each message of `body` to `handle` (which returns false to stop). A message that
    /// does not decode is skipped with a log line; a bad or oversized length throws
    /// `DelimitedFrameSplitter.Failure`, as the rest of the stream cannot be split.
    static func read<Body: AsyncSequence, M: SwiftProtobuf.Message>(
        _ body: Body, as type: M.Type, problems: InputProblemLog, handle: (M) async -> Bool
    ) async throws -> End where Body.Element == [UInt8] {
        var splitter = DelimitedFrameSplitter()
        for try await chunk in body {
            splitter.append(chunk)
            while let bytes = try splitter.nextMessage() {
                let message: M
                do {
                    message = try M(serializedBytes: bytes, options: decodingOptions)
                } catch {
                    problems.note("a \(M.protoMessageName) that does not decode (\(bytes.count) bytes)")
                    continue
                }
                if !(await handle(message)) { return .stopped }
            }
        }
        return splitter.pendingBytes == 0 ? .finished : .cutOff
    }
}
