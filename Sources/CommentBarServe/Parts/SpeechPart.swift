// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarSpeech

/// Reading the chat aloud and the first-time sound (`SpeechHook`): their settings and hotkeys from
/// each line, the rows the bar shows. History (a platform's recent chat on joining, the log's
/// rows after a restart) is never read aloud.
final class SpeechPart: SessionPart {
    let hook: SpeechHook
    /// The event API hears the hotkeys' skips and pauses as it hears the page's.
    private let control: ControlHook

    init(_ hook: SpeechHook, control: ControlHook) {
        self.hook = hook
        self.control = control
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.speechSettings { hook.configure(settings) }
        if let hotkeys = input.message.speech {
            for action in hook.control(hotkeys) { control.speechAction(action.rawValue) }
        }
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        hook.heard(event, shown: shown?.isHistory == true ? nil : shown)
    }

    var problem: String? { hook.problem }
}
