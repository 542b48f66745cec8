// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarServices

/// The control page and event API (`ControlHook`): started, moved and stopped as the settings say,
/// told the bar's streams, the events it applied and the pin it shows.
final class ControlPart: SessionPart {
    let hook: ControlHook

    init(_ hook: ControlHook) {
        self.hook = hook
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings { hook.configure(enabled: settings.control, port: settings.controlPort) }
    }

    func streamsChanged(_ streams: [StreamPlan.Stream]) {
        hook.streamsChanged(streams.map {
            ControlStream(platform: $0.service, channel: $0.channel, colour: $0.badge.color.hex)
        })
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        hook.heard(event, shown: shown, origin: origin)
    }

    func barUpdated(_ state: BarState) {
        hook.pinShown(state.pinned)
    }

    var problem: String? { hook.problem }

    func stop() async {
        await hook.shutdown()
    }
}
