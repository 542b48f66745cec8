// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import NIOCore
import SwiftProtobuf

/// For `commentbar bench-parsers`: how many NDGR messages a second the segment path turns into
/// events (length-delimited split, SwiftProtobuf decode, mapping), on a segment written with
/// the published schema: anonymous and named comments, Japanese text.
package enum NiconicoParseBenchmark {
    /// A segment of `count` length-delimited `ChunkedMessage`s, as a segment URL streams them.
    package static func segment(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<count {
            var chat = NDGRChat()
            chat.content = index % 3 == 0 ? "こんにちは、初見です！" : "wwww 今のすごい \(index)"
            chat.no = Int32(index)
            if index % 2 == 0 { chat.hashedUserID = "a:Xk3pQzAbCdEf" } else { chat.rawUserID = Int64(10_000 + index); chat.name = "視聴者\(index % 50)" }
            var message = NDGRChunkedMessage()
            message.meta.id = "m\(index)"
            message.message.chat = chat
            guard let body: [UInt8] = try? message.serializedBytes() else { continue }
            var length = UInt64(body.count)
            repeat {
                bytes.append(UInt8(length & 0x7F) | (length > 0x7F ? 0x80 : 0))
                length >>= 7
            } while length > 0
            bytes += body
        }
        return bytes
    }

    /// Parses `segment` `rounds` times; the events made and the seconds taken.
    package static func run(segment: [UInt8], rounds: Int) -> (messages: Int, events: Int, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        var messages = 0
        var events = 0
        for _ in 0..<rounds {
            var splitter = DelimitedFrameSplitter()
            splitter.append(ByteBuffer(bytes: segment))
            while let body = try? splitter.nextMessage() {
                guard let chunk = try? NDGRChunkedMessage(serializedBytes: body) else { continue }
                messages += 1
                for output in MessageMapper.map(chunk) {
                    if case .event = output { events += 1 }
                }
            }
        }
        let elapsed = clock.now - start
        return (messages, events, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
