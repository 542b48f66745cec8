// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarSpeech
import Synchronization

/// The control server's side of a `ServeSession`: pins on the session's bar, speech's skip and
/// pause. Viewer choices and the chat log belong to the viewer memory (issue 29): `viewers`
/// is where it plugs in; without it, choices are refused (503) and search covers the comments
/// the server has seen.
final class SessionControlBackend: ControlBackend {
    private let speech: SpeechHook
    /// Weak: the session owns the control hook, which owns this.
    private let session = Mutex(WeakSession())
    /// The viewer memory's side (nil: not connected).
    let viewers: (any ViewerMemoryPort)?

    struct WeakSession {
        weak var value: ServeSession?
    }

    init(speech: SpeechHook, viewers: (any ViewerMemoryPort)? = nil) {
        self.speech = speech
        self.viewers = viewers
    }

    func connect(_ session: ServeSession) {
        self.session.withLock { $0.value = session }
    }

    private var current: ServeSession? { session.withLock { $0.value } }

    func pin(_ line: ChatLine) -> Double? { current?.pin(line) }

    func unpin(id: String?) -> Bool { current?.unpin(id: id) ?? false }

    func setViewer(_ choice: ViewerChoice) async -> ViewerChoiceOutcome {
        guard let viewers else { return .unavailable("the viewer memory is not part of this renderer yet") }
        return await viewers.setViewer(choice)
    }

    func search(_ text: String, limit: Int) async -> [ControlEvent.Comment]? {
        await viewers?.search(text, limit: limit)
    }

    func viewerFacts(platform: String, channel: String, user: String) -> ViewerFacts {
        viewers?.facts(platform: platform, channel: channel, user: user) ?? ViewerFacts()
    }

    func skipSpeech() { speech.skip() }

    func pauseSpeech(_ paused: Bool?) -> Bool { speech.pause(paused) }
}

/// Where the viewer memory (issue 29, `CommentBarMemory`) meets the control page: the lead's
/// adapter implements it over the memory and passes it to `SessionControlBackend`.
protocol ViewerMemoryPort: Sendable {
    func setViewer(_ choice: ViewerChoice) async -> ViewerChoiceOutcome
    func search(_ text: String, limit: Int) async -> [ControlEvent.Comment]?
    func facts(platform: String, channel: String, user: String) -> ViewerFacts
}
