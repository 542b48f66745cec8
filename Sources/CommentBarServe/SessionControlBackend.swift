// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import CommentBarSpeech
import CommentBarSupport
import Synchronization

/// The control server's side of a `ServeSession`: pins on the session's bar, speech's skip and
/// pause, and the viewer memory (issue 29) for the streamer's choices and the log's search.
/// Without the memory (`remember` off, the log cannot be opened) choices are refused (503) and
/// search covers the comments the server has seen.
final class SessionControlBackend: ControlBackend {
    private let speech: SpeechHook
    private let memory: MemoryHook
    private let polls: PollBoard
    private let queue: QueueBoard
    private let giveaways: GiveawayBoard
    /// Weak: the session owns the control hook, which owns this.
    private let session = Mutex(WeakSession())

    struct WeakSession {
        weak var value: ServeSession?
    }

    init(speech: SpeechHook, memory: MemoryHook, polls: PollBoard, queue: QueueBoard, giveaways: GiveawayBoard) {
        self.speech = speech
        self.memory = memory
        self.polls = polls
        self.queue = queue
        self.giveaways = giveaways
    }

    func connect(_ session: ServeSession) {
        self.session.withLock { $0.value = session }
    }

    private var current: ServeSession? { session.withLock { $0.value } }

    func pin(_ line: ChatLine) -> Double? { current?.pin(line) }

    func unpin(id: String?) -> Bool { current?.unpin(id: id) ?? false }

    func setViewer(_ choice: ViewerChoice) async -> ViewerChoiceOutcome {
        guard let log = memory.memory else {
            return .unavailable(memory.problem ?? "the chat log is off (tick \"Remember viewers\" in the source's properties)")
        }
        let key = ViewerKey(channel: ChannelRef(platform: choice.platform, channel: choice.channel), user: choice.user)
        let colour: FieldChange<RGBColor>
        switch choice.colour {
        case nil: colour = .keep
        case ""?: colour = .clear
        case let hex?:
            guard let value = RGBColor(hex: hex) else { return .unavailable("colour must be #rrggbb") }
            colour = .set(value)
        }
        let nickname: FieldChange<String> = choice.nickname.map { $0.isEmpty ? .clear : .set($0) } ?? .keep
        let voice: FieldChange<String> = choice.voice.map { $0.isEmpty ? .clear : .set($0) } ?? .keep
        // Suspends until the memory's writer has it (its own thread): no thread waits.
        switch await log.setViewer(key, nickname: nickname, colour: colour, voice: voice, hidden: choice.hidden) {
        case .saved:
            // Hidden viewers never take part: out of the queue, never drawn (their comments no
            // longer reach the boards: the memory drops them).
            if let hidden = choice.hidden {
                if hidden { queue.remove(key) }
                giveaways.hidden(key, hidden)
            }
            return .saved
        case .refused(let why), .notSaved(let why): return .unavailable(why)
        }
    }

    func search(_ text: String, limit: Int) async -> [ControlEvent.Comment]? {
        guard let log = memory.memory else { return nil }
        // Runs on the memory's query thread, cut short after `ChatMemory.searchDeadline`.
        let found = try? await log.search(ChatQuery(text: text, limit: max(1, min(limit, 500))))
        return found?.map(Self.comment)
    }

    /// A logged message as the event API shows comments (its id is the platform's: a logged
    /// row may be from an earlier stream, not on the bar).
    static func comment(_ message: LoggedMessage) -> ControlEvent.Comment {
        ControlEvent.Comment(id: message.messageID, platform: message.channel.platform, channel: message.channel.channel,
                             platformColour: "", user: message.login ?? message.user, name: message.name,
                             nickname: message.nickname, firstTime: message.firstTime, text: message.text ?? "",
                             kind: message.kind, gift: message.giftName, count: message.count,
                             history: message.history, time: message.sentAt ?? message.time)
    }

    func skipSpeech() { speech.skip() }

    func pauseSpeech(_ paused: Bool?) -> Bool { speech.pause(paused) }

    func startPoll(_ request: PollStart) -> PollStartOutcome {
        let revote: Poll.Revote
        switch request.revote {
        case nil: revote = .firstStands
        case let text?:
            guard let chosen = Poll.Revote(rawValue: text) else { return .refused("revote is \"first\" or \"latest\"") }
            revote = chosen
        }
        if let seconds = request.seconds, !(1...86_400).contains(seconds) {
            return .refused("seconds is 1 to 86400, or left out to close the poll yourself")
        }
        // The strip shows the question and the options on the broadcast: the bar's NG words stay off it.
        let filters = current?.shared.withLock { $0.settings.filters } ?? .none
        if filters.containsNGWord(request.question) { return .refused("the question holds an NG word: change it") }
        if let index = request.options.firstIndex(where: filters.containsNGWord) {
            return .refused("option \(index + 1) holds an NG word: change it")
        }
        do throws(PollProblem) {
            let question = try PollQuestion(question: request.question, options: request.options)
            let poll = polls.start(question, revote: revote, bareNumbers: request.bareNumbers ?? false, seconds: request.seconds)
            return .started(ParticipationWire.poll(poll, now: WallClock.now()))
        } catch {
            return .refused(error.description)
        }
    }

    func closePoll() -> ControlPoll? {
        polls.close().map { ParticipationWire.poll($0, now: WallClock.now()) }
    }

    func dismissPoll() -> Bool { polls.dismiss() }

    func currentPoll() -> ControlPoll? {
        let (poll, dismissed) = polls.currentAndDismissed
        return poll.map { ParticipationWire.poll($0, now: WallClock.now(), dismissed: dismissed) }
    }

    func openQueue(_ request: QueueOpen) -> QueueOpenOutcome {
        let (join, leave) = (request.join ?? JoinWords.defaultJoin, request.leave ?? JoinWords.defaultLeave)
        if let problem = JoinWords.problem(join, named: "join") ?? JoinWords.problem(leave, named: "leave") {
            return .refused(problem)
        }
        let minStreams = request.minStreams ?? 0
        // Without the memory nobody has an earlier stream: the rule would keep everyone out.
        if minStreams > 0, memory.memory == nil {
            return .refused("regulars only needs the viewer memory: turn on \"remember\" (Remember viewers)")
        }
        let rules = JoinRules(capacity: request.capacity ?? JoinRules().capacity, firstTimeFirst: request.firstTimeFirst ?? false,
                              minimumStreamsSeen: minStreams, membersOnly: request.membersOnly ?? false)
        return .opened(ParticipationWire.queue(queue.open(rules: rules, words: JoinWords(join: join, leave: leave))))
    }

    func closeQueue() -> Bool { queue.close() }

    func currentQueue() -> ControlQueue? { queue.current.map(ParticipationWire.queue) }

    func nextInQueue(_ count: Int) -> [ControlQueue.Entry]? {
        guard queue.current != nil else { return nil }
        return queue.next(count).map(ParticipationWire.entry)
    }

    func queueDone() -> Bool {
        guard queue.current != nil else { return false }
        queue.done()
        return true
    }

    func removeFromQueue(_ viewer: QueueViewer) -> Bool {
        queue.remove(ViewerKey(platform: viewer.platform, channel: viewer.channel, user: viewer.user))
    }

    func moveInQueue(_ viewer: QueueViewer, to place: Int) -> ControlQueue? {
        queue.move(ViewerKey(platform: viewer.platform, channel: viewer.channel, user: viewer.user), to: place)
            .map(ParticipationWire.queue)
    }

    func startGiveaway(_ request: GiveawayStart) -> GiveawayStartOutcome {
        if let seconds = request.seconds, !(1...86_400).contains(seconds) {
            return .refused("seconds is 1 to 86400, or left out to draw when you like")
        }
        if let minimum = request.minComments, !(0...1000).contains(minimum) { return .refused("min_comments is 0 to 1000") }
        let rules = GiveawayRules(minimumComments: request.minComments ?? 0, firstTimeViewers: request.firstTime ?? true)
        do throws(PollProblem) {
            let giveaway = try giveaways.start(word: request.word, rules: rules, seconds: request.seconds)
            return .started(ParticipationWire.giveaway(giveaway, now: WallClock.now()))
        } catch {
            return .refused(error.description)
        }
    }

    func drawGiveaway() -> ControlGiveaway.Viewer? {
        giveaways.draw().map(ParticipationWire.viewer)
    }

    func dismissGiveaway() -> Bool { giveaways.dismiss() }

    func currentGiveaway() -> ControlGiveaway? {
        let (giveaway, dismissed) = giveaways.currentAndDismissed
        return giveaway.map { ParticipationWire.giveaway($0, now: WallClock.now(), dismissed: dismissed) }
    }
}
