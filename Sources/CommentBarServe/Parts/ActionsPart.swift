// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarActions
import CommentBarCore
import CommentBarParticipation
import CommentBarServices
import Logging
import Synchronization

/// Streamer.bot's and Cuebot's actions (`ActionsHook`): the settings (with the saved WebSocket
/// password) from each line; every comment and gift the bar applied, as shown and as the feed gave
/// it (for `ng`); each newly pinned row; what the audience's poll, queue and giveaway do
/// (`AudienceActions`).
final class ActionsPart: SessionPart {
    let hook: ActionsHook
    /// The bar's streams (service, channel), by origin index; and the pinned row last seen.
    private let seen = Mutex<(streams: [(service: String, channel: String)], pinned: String?)>(([], nil))

    init(_ hook: ActionsHook) {
        self.hook = hook
    }

    /// The product's: problems wake the frame loop (`changed`); the session's boards run the
    /// audience's rules.
    convenience init(log: Logger, polls: PollBoard, queue: QueueBoard, giveaways: GiveawayBoard,
                     changed: @escaping @Sendable () -> Void) {
        self.init(ActionsHook(log: log, changed: changed))
        let hook = self.hook
        polls.listen { change in AudienceActions.happenings(change).forEach(hook.audience) }
        queue.listen { change in AudienceActions.happenings(change).forEach(hook.audience) }
        giveaways.listen { change in AudienceActions.happenings(change).forEach(hook.audience) }
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings { hook.configure(settings) }
    }

    func streamsChanged(_ streams: [StreamPlan.Stream]) {
        seen.withLock { $0.streams = streams.map { ($0.service, $0.channel) } }
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        switch event {
        case .comment(let line), .gift(let line):
            let (service, channel) = stream(origin.index, service: origin.service)
            hook.heard(shown: shown.map { ActionRow(line: $0, platform: service, channel: channel) },
                       original: ActionRow(line: line, platform: service, channel: channel))
        default:
            break
        }
    }

    func barUpdated(_ state: BarState) {
        let id = state.pinned?.line.id
        let fresh = seen.withLock { seen -> Bool in
            defer { seen.pinned = id }
            return id != nil && id != seen.pinned
        }
        guard fresh, let line = state.pinned?.line else { return }
        let index = RowID.stream(ofRow: line.id, among: state.streams.count) ?? 0
        let (service, channel) = stream(index, service: line.platform ?? "")
        hook.pinned(ActionRow(line: line, platform: service, channel: channel))
    }

    private func stream(_ index: Int, service: String) -> (String, String) {
        seen.withLock { seen in
            guard seen.streams.indices.contains(index) else { return (service, "") }
            return (seen.streams[index].service, seen.streams[index].channel)
        }
    }

    var problem: String? { hook.problems.current }

    func stop() async {
        await hook.stop()
    }
}
