// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The parse path of one NDGR segment on its own (length-delimited split, SwiftProtobuf
/// decoding and mapping, as the feed runs them), for the parser benchmark.
package enum NiconicoSegmentParsing {
    /// The messages a segment body holds and the events they make; a message that does not
    /// decode is counted as neither.
    package static func parse(segment: [UInt8]) -> (messages: Int, events: [FeedEvent]) {
        var splitter = DelimitedFrameSplitter()
        splitter.append(segment)
        var messages = 0
        var events: [FeedEvent] = []
        while let body = try? splitter.nextMessage() {
            guard let chunk = try? NDGRChunkedMessage(serializedBytes: body) else { continue }
            messages += 1
            for case .event(let event) in MessageMapper.map(chunk) { events.append(event) }
        }
        return (messages, events)
    }
}
