// SPDX-License-Identifier: GPL-2.0-or-later
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
