// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarSupport

/// The `file` service: a JSON-lines recording (docs/feed-protocol.md), replayed in real time.
/// Local paths are allowed here and only here: the streamer names the file.
public enum FileService {
    static let missingFile = "the file service needs the path of a JSON-lines file as its stream id"

    public static let description = ServiceDescription(
        id: "file", displayName: "File (JSON-lines recording)",
        streamIDHelp: ServiceHelp(en: "the path of a JSON-lines event file",
                                   ja: "JSON Lines 形式のイベントファイルのパス"),
        urlPatterns: [],
        badge: .plain,
        memberBadges: ServiceDescription.feedProtocolMemberBadges,
        makeFeed: { request throws(FeedConfigError) in
            let path = try checkedPath(request.streamID)
            // A missing path is a setting to fix, said at once; stat never blocks. Reading and
            // parsing happen in the feed's task, and their problems show as its status.
            do throws(RegularFile.Problem) {
                try RegularFile.check(path, maxBytes: FeedTimeline.maxFileBytes)
            } catch {
                throw FeedConfigError(error.description)
            }
            return FileFeed(path: path)
        },
        makeTimeline: { streamID throws(FeedConfigError) in
            try FeedTimeline.load(path: try checkedPath(streamID))
        },
        mayNameLocalFiles: true)

    private static func checkedPath(_ streamID: String) throws(FeedConfigError) -> String {
        guard !streamID.isEmpty else { throw FeedConfigError(missingFile) }
        return streamID
    }
}
