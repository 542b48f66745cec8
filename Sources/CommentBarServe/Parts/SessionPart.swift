// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarServices

/// A part of a `serve` session: something that runs beside the bar and hears what the session
/// hears (speech, the viewer memory, the control page, the overlay, the secrets). The session
/// holds an ordered list of parts (`ServeSession.makeParts`) and calls every part at each of
/// these points; a part implements only the ones it needs (the others do nothing). Adding a
/// capability is one file here plus one line in that list (docs/architecture.md, "Session parts").
///
/// Every call comes from the session's own tasks and must return at once: a part that has slow
/// work (a disk, a network) does it on a thread or task of its own.
public protocol SessionPart: AnyObject, Sendable {
    /// One stdin line, decoded, with the actions it pressed. A part may change what the parts after
    /// it and the session see (the secrets fill in the credentials). Called in the list's order.
    func apply(_ input: inout SessionInput)
    /// A stream's feed, before it runs: a part may wrap it (the memory badges and logs its comments).
    func wrap(_ feed: any CommentFeed, stream: StreamPlan.Stream) -> any CommentFeed
    /// A new feed started: the bar's streams, in origin order.
    func streamsChanged(_ streams: [StreamPlan.Stream])
    /// An event the bar applied (deletions name rows as the bar does), and the row it added as
    /// the bar shows it (nil: none, or filtered out).
    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin)
    /// The frame loop's look at the bar, at every wake-up (shown or hidden), before it draws.
    func barUpdated(_ state: BarState)
    /// A frame went into the sink.
    func framePublished()
    /// What is wrong with this part now, for the bar's status line (nil: all works, or it is
    /// off). Read by the frame loop on every frame: it must be cheap (`ProblemReporter.current`).
    var problem: String? { get }
    /// The session ends (stdin closed): release what the part holds.
    func stop() async
}

extension SessionPart {
    public func apply(_ input: inout SessionInput) {}
    public func wrap(_ feed: any CommentFeed, stream: StreamPlan.Stream) -> any CommentFeed { feed }
    public func streamsChanged(_ streams: [StreamPlan.Stream]) {}
    public func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {}
    public func barUpdated(_ state: BarState) {}
    public func framePublished() {}
    public var problem: String? { nil }
    public func stop() async {}
}

/// What the parts see of one stdin line (`SessionPart.apply`).
public struct SessionInput: Sendable {
    /// The line, as the parts before this one left it.
    public var message: StdinMessage
    /// The hotkeys and buttons this line pressed (`ActionTracker`: a repeated line presses nothing).
    public let actions: [BarAction]
    /// The bar's settings before this line.
    public let current: BarSettings

    public init(message: StdinMessage, actions: [BarAction], current: BarSettings) {
        self.message = message
        self.actions = actions
        self.current = current
    }
}
