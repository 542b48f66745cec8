// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarOneComme
import CommentBarParticipation
import CommentBarServices
import Logging

/// The OneComme-compatible server for OneComme's templates (`OneCommeHook`): started, moved and
/// stopped as the settings say, told the bar's streams, what the bar applied and the pin it shows.
final class OneCommePart: SessionPart {
    let hook: OneCommeHook

    init(_ hook: OneCommeHook) {
        self.hook = hook
    }

    /// The product's: the standard templates folder; problems wake the frame loop (`changed`);
    /// the session's 参加型 queue is the templates' waiting list (`queue`).
    convenience init(log: Logger, queue: QueueBoard, changed: @escaping @Sendable () -> Void) {
        self.init(OneCommeHook(log: log, changed: changed))
        let hook = self.hook
        // The queue itself is handed on (a copy shares its storage): the hook makes the list when it tells it.
        queue.follow { queue in hook.ordersChanged { Self.orders(queue) } }
    }

    /// The queue as OneComme's waiting list: who plays now, then who waits, in order.
    static func orders(_ queue: JoinQueue?) -> [OneCommeOrder] {
        guard let queue else { return [] }
        func order(_ entry: JoinQueue.Entry, playing: Bool) -> OneCommeOrder {
            OneCommeOrder(platform: entry.viewer.channel.platform, channel: entry.viewer.channel.channel,
                          user: entry.viewer.user, name: entry.name, played: entry.played, playing: playing)
        }
        return queue.playing.map { order($0, playing: true) } + queue.waiting.map { order($0, playing: false) }
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings { hook.configure(enabled: settings.onecomme, port: settings.onecommePort) }
    }

    func streamsChanged(_ streams: [StreamPlan.Stream]) {
        hook.streamsChanged(streams.map { stream in
            OneCommeStream(platform: stream.service, channel: stream.channel, name: stream.name,
                           colour: stream.badge.color)
        })
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        hook.heard(event, shown: shown, index: origin.index)
    }

    func barUpdated(_ state: BarState) {
        hook.pinShown(state.pinned)
    }

    var problem: String? { hook.problems.current }

    func stop() async {
        await hook.shutdown()
    }
}
