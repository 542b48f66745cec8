// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import SwiftProtobuf

/// The comments said before the bar joined: the view stream's `backward` entry names a packed
/// segment (one `PackedSegment`, oldest first) of the programme's recent messages. Only the
/// newest page is read, and only its last rows are kept: the bar starts with them, marked as
/// history. Its `next` (older pages) is not followed.
enum BackwardHistory {
    /// More than a bar can show (max_lines is at most 50).
    static let maxRows = 50
    static let limits = WebLimits(maxBytes: 4 << 20, timeout: .seconds(15))

    /// The newest rows of the packed segment at `uri`, as history events, oldest first.
    static func read(_ uri: String, site: WebAPI, problems: InputProblemLog) async -> [FeedEvent] {
        do {
            let body = try await site.get(uri, limits: limits, accept: "application/octet-stream")
            return rows(in: try Dwango_Nicolive_Chat_Service_Edge_PackedSegment(serializedBytes: body))
        } catch {
            problems.note("backward segment \(WebFailure.shown(uri)): \(String("\(error)".prefix(120)))")
            return []
        }
    }

    /// The packed segment's comments and gifts, the newest `maxRows`, marked as history.
    static func rows(in segment: Dwango_Nicolive_Chat_Service_Edge_PackedSegment) -> [FeedEvent] {
        let events = segment.messages.flatMap(MessageMapper.map).compactMap { output -> FeedEvent? in
            switch output {
            case .event(.comment(var line)): line.isHistory = true; return .comment(line)
            case .event(.gift(var line)): line.isHistory = true; return .gift(line)
            default: return nil
            }
        }
        return Array(events.suffix(maxRows))
    }
}
