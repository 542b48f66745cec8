// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// Replays a JSON-lines file, read in the feed's own task so that a slow or
/// bad file never holds up the renderer; problems show as an error status.
struct FileFeed: CommentFeed {
    var path: String

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        emit(.status(.connecting))
        let timeline: FeedTimeline
        do {
            timeline = try FeedTimeline.load(path: path)
        } catch {
            emit(.status(.error(message: error.message)))
            return
        }
        await TimelineFeed(timeline: timeline, loopEvery: nil).run(emit: emit)
    }
}
