import CommentBarCore

/// A source of comment-bar events: a replayed file, the demo, or a live chat.
///
/// `run` produces events until its task is cancelled, then returns promptly.
/// A feed reports its connection through `.status` events and never throws:
/// errors become `.status(.error)` or `.status(.reconnecting)` so the bar can
/// show them.
public protocol CommentFeed: Sendable {
    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async
}

/// A setting that cannot make a feed (unknown service, bad stream id or server).
/// Its message is shown on the bar and in the OBS log as it is.
public struct FeedConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}

/// The feeds that need no network: `demo` and `file`.
public enum LocalFeeds {
    static let missingFile = "the file service needs the path of a JSON-lines file as its stream id"

    /// The feed for a service, nil if the service is not a local one.
    public static func make(service: String, streamID: String) throws(FeedConfigError) -> (any CommentFeed)? {
        switch service {
        case "demo":
            return TimelineFeed(timeline: DemoScript.timeline, loopEvery: DemoScript.loopSeconds)
        case "file":
            guard !streamID.isEmpty else { throw FeedConfigError(missingFile) }
            // A missing path is a setting to fix, said at once; stat never blocks. Reading and
            // parsing happen in the feed's task, and their problems show as its status.
            do {
                try RegularFile.check(streamID, maxBytes: FeedTimeline.maxFileBytes)
            } catch {
                throw FeedConfigError(error.description)
            }
            return FileFeed(path: streamID)
        default:
            return nil
        }
    }

    /// The whole timeline of a local service, for rendering a moment of it.
    public static func timeline(service: String, streamID: String) throws(FeedConfigError) -> FeedTimeline {
        switch service {
        case "demo":
            return DemoScript.timeline
        case "file":
            guard !streamID.isEmpty else { throw FeedConfigError(missingFile) }
            return try FeedTimeline.load(path: streamID)
        default:
            throw FeedConfigError("service \"\(service)\" has no fixed timeline (use demo or file)")
        }
    }
}

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
