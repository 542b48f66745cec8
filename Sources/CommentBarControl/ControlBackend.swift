// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What the control server asks of the rest of the renderer (issue 30). `serve` implements it
/// over its session (the bar's state, speech) and the viewer memory (issue 29); the tests use
/// an in-process double. Every call returns quickly or is async: none runs on the frame loop.
public protocol ControlBackend: Sendable {
    /// Pins `line` (a comment the event API gave) at the top of the bar; the pin's end
    /// (unix seconds), or nil when it lasts until unpinned.
    func pin(_ line: ChatLine) -> Double?
    /// Takes the pin away: the one of row `id`, or any when `id` is nil. Whether one went.
    func unpin(id: String?) -> Bool
    /// Stores a viewer's nickname, colour or hidden flag (the viewer memory).
    func setViewer(_ choice: ViewerChoice) async -> ViewerChoiceOutcome
    /// Searches the chat log; nil when there is no log (the server then searches the comments
    /// it has seen itself).
    func search(_ text: String, limit: Int) async -> [ControlEvent.Comment]?
    /// Cuts short what speech is reading now.
    func skipSpeech()
    /// Pauses (true) or resumes (false) speech, or toggles it (nil); the state it is in after.
    func pauseSpeech(_ paused: Bool?) -> Bool
    /// Starts a poll (an open one closes first), or says why not.
    func startPoll(_ request: PollStart) -> PollStartOutcome
    /// Closes the open poll: the poll as closed, or nil when none was open.
    func closePoll() -> ControlPoll?
    /// Takes the closed poll's result off the bar; whether one was there.
    func dismissPoll() -> Bool
    /// The open poll, or the last one closed.
    func currentPoll() -> ControlPoll?
    /// Opens the 参加型 queue (or gives an open one new rules), or says why not.
    func openQueue(_ request: QueueOpen) -> QueueOpenOutcome
    /// Closes it; whether it was open.
    func closeQueue() -> Bool
    /// The queue (nil: closed).
    func currentQueue() -> ControlQueue?
    /// Calls the next `count` (nil: the queue is closed).
    func nextInQueue(_ count: Int) -> [ControlQueue.Entry]?
    /// Those playing are done; whether the queue is open.
    func queueDone() -> Bool
    /// Takes a viewer out; whether they were there.
    func removeFromQueue(_ viewer: QueueViewer) -> Bool
    /// Moves a waiting viewer to a place; the queue after it (nil: not waiting, or no queue).
    func moveInQueue(_ viewer: QueueViewer, to place: Int) -> ControlQueue?
    /// Starts a giveaway, or says why not.
    func startGiveaway(_ request: GiveawayStart) -> GiveawayStartOutcome
    /// Draws a winner (nil: no giveaway, or nobody left).
    func drawGiveaway() -> ControlGiveaway.Viewer?
    /// Takes the last winner off the bar; whether one was there.
    func dismissGiveaway() -> Bool
    /// The running giveaway, or the last one.
    func currentGiveaway() -> ControlGiveaway?
}

/// A backend without polls, a queue or giveaways (a test's): refused, none open.
extension ControlBackend {
    public func startPoll(_ request: PollStart) -> PollStartOutcome { .refused("polls are not available here") }
    public func closePoll() -> ControlPoll? { nil }
    public func dismissPoll() -> Bool { false }
    public func currentPoll() -> ControlPoll? { nil }
    public func openQueue(_ request: QueueOpen) -> QueueOpenOutcome { .refused("the queue is not available here") }
    public func closeQueue() -> Bool { false }
    public func currentQueue() -> ControlQueue? { nil }
    public func nextInQueue(_ count: Int) -> [ControlQueue.Entry]? { nil }
    public func queueDone() -> Bool { false }
    public func removeFromQueue(_ viewer: QueueViewer) -> Bool { false }
    public func moveInQueue(_ viewer: QueueViewer, to place: Int) -> ControlQueue? { nil }
    public func startGiveaway(_ request: GiveawayStart) -> GiveawayStartOutcome { .refused("giveaways are not available here") }
    public func drawGiveaway() -> ControlGiveaway.Viewer? { nil }
    public func dismissGiveaway() -> Bool { false }
    public func currentGiveaway() -> ControlGiveaway? { nil }
}

/// `POST /api/viewer`: a viewer of one channel, and what the streamer chose for them.
/// Absent fields stay as they are; an empty nickname or colour removes it.
public struct ViewerChoice: Sendable, Equatable, Codable {
    public var platform: String
    public var channel: String
    public var user: String
    public var nickname: String?
    /// `#rrggbb`, or "" to go back to the platform's colour.
    public var colour: String?
    /// The voice speech reads them in (an engine's voice), or "" to go back to `speech_voices`.
    public var voice: String?
    public var hidden: Bool?

    public init(platform: String, channel: String, user: String, nickname: String? = nil, colour: String? = nil,
                voice: String? = nil, hidden: Bool? = nil) {
        self.platform = platform
        self.channel = channel
        self.user = user
        self.nickname = nickname
        self.colour = colour
        self.voice = voice
        self.hidden = hidden
    }

    /// Nicknames are short (the NCV convention: 1–16 characters).
    public static let maxNickname = 16
    static let maxKey = 200
    /// A voice file's path fits (the viewer memory keeps at most as much).
    static let maxVoice = 256

    /// Why this choice cannot be stored, or nil when it can.
    public var problem: String? {
        if platform.isEmpty || channel.isEmpty || user.isEmpty { return "platform, channel and user are required" }
        if platform.unicodeScalars.count > Self.maxKey || channel.unicodeScalars.count > Self.maxKey
            || user.unicodeScalars.count > Self.maxKey {
            return "platform, channel or user is too long"
        }
        if nickname == nil && colour == nil && voice == nil && hidden == nil {
            return "nothing to change: give nickname, colour, voice or hidden"
        }
        if let nickname {
            if nickname.count > Self.maxNickname { return "a nickname has at most \(Self.maxNickname) characters" }
            if TextSanitizer.clean(nickname, limit: Self.maxKey) != nickname {
                return "a nickname must be plain text (no control characters, no runs of spaces)"
            }
        }
        if let colour, !colour.isEmpty, RGBColor(hex: colour) == nil || !colour.hasPrefix("#") {
            return "colour must be #rrggbb"
        }
        if let voice, voice.unicodeScalars.count > Self.maxVoice || voice.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a voice is one line of at most \(Self.maxVoice) characters"
        }
        return nil
    }
}

public enum ViewerChoiceOutcome: Sendable, Equatable {
    case saved
    /// The choice cannot be stored now (no viewer memory, `remember` off, a disk problem).
    case unavailable(String)
}

