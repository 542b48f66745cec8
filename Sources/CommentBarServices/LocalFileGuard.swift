// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import Logging
import Synchronization

/// Wraps a network feed so that its events can never name a local file: an avatar or
/// background that is not an `https://` URL is dropped with a log line that names no
/// path (the bar shows nothing of it), so a hostile relay can neither put a file of the
/// streamer's machine on air nor learn from the bar which files exist.
struct LocalFileGuard: CommentFeed {
    let feed: any CommentFeed
    let source: String

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let log = Logger(label: "commentbar.feeds")
        let refusals = Mutex(0)
        await feed.run { event in
            switch event {
            case .avatar(let image?) where image.isLocalFile, .background(let image?) where image.isLocalFile:
                // The first refusal is logged, then one in a hundred: a flood cannot flood the log.
                let count = refusals.withLock { count in
                    count += 1
                    return count
                }
                if count == 1 || count % 100 == 0 {
                    log.warning("refused \(count == 1 ? "an image event" : "\(count) image events") from the \(source) feed naming a local file: network feeds may only name https:// images")
                }
            default:
                emit(event)
            }
        }
    }
}
