// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import Synchronization

/// A stream's feed with the memory in its path: a session in the log for as long as it runs,
/// the channel's recent rows as history when the last session ended minutes ago, and every
/// comment looked up, badged and logged before the bar sees it. Events pass in order; a hidden
/// viewer's rows stop here.
struct MemoryFeed: CommentFeed {
    let inner: any CommentFeed
    let hook: MemoryHook
    let channel: ChannelRef

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let run = MemoryRun(hook: hook, channel: channel)
        // Read before this run's own session exists, which would count as "the last one".
        for line in run.history() { emit(.comment(line)) }
        run.start()
        await inner.run { event in
            if let passed = run.pass(event) { emit(passed) }
        }
        run.end()
    }
}

/// One run of one feed: its session in whichever log is in use (a new one when `remember` or
/// `log_path` changes mid-run).
final class MemoryRun: Sendable {
    private let hook: MemoryHook
    private let channel: ChannelRef
    private let session = Mutex<(memory: ChatMemory, token: UInt64)?>(nil)

    init(hook: MemoryHook, channel: ChannelRef) {
        self.hook = hook
        self.channel = channel
    }

    /// The rows to start with (none when the log is off or the channel's last session is old).
    func history() -> [ChatLine] {
        let current = hook.current()
        guard let memory = current.memory else { return [] }
        return memory.history(of: channel, limit: current.maxLines, now: MemoryClock.now())
    }

    /// Opens the run's session at once, so a run without a comment still counts as a session.
    func start() {
        let current = hook.current()
        if let memory = current.memory { _ = token(in: memory, now: MemoryClock.now(), recording: current.recording) }
    }

    /// The event as the bar should get it; nil drops it (a hidden viewer's row).
    func pass(_ event: FeedEvent) -> FeedEvent? {
        let now = MemoryClock.now()
        let current = hook.current()
        guard let memory = current.memory else { return Self.withoutMemory(event, current.options) }
        let token = self.token(in: memory, now: now, recording: current.recording)
        switch event {
        case .comment(let line):
            return memory.receive(line, session: token, channel: channel, options: current.options, now: now).map(FeedEvent.comment)
        case .gift(let line):
            return memory.receive(line, session: token, channel: channel, options: current.options, now: now).map(FeedEvent.gift)
        case .delete(let id):
            memory.delete(messageID: id, session: token, now: now)
        case .deleteUser(let user):
            memory.deleteMessages(ofUser: user, session: token, now: now)
        default:
            break
        }
        return event
    }

    /// With `remember` off nothing is read or written; the platform's own first-message flag
    /// (Twitch) still gets its badge.
    static func withoutMemory(_ event: FeedEvent, _ options: MemoryOptions) -> FeedEvent {
        switch event {
        case .comment(var line) where line.platformFirstMessage && !line.isHistory:
            line.marks.append(RowMark(.firstTime, options.labels.firstTime))
            return .comment(line)
        default:
            return event
        }
    }

    private func token(in memory: ChatMemory, now: Double, recording: Double?) -> UInt64 {
        session.withLock { session in
            if let session, session.memory === memory { return session.token }
            if let old = session { old.memory.endSession(old.token, now: now) }
            let token = memory.openSession(channel, now: now)
            if let recording { memory.recordingStarted(at: recording) }
            session = (memory, token)
            return token
        }
    }

    func end() {
        let now = MemoryClock.now()
        session.withLock { session in
            if let session { session.memory.endSession(session.token, now: now) }
            session = nil
        }
    }
}
