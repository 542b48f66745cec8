// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarSupport
import Synchronization

/// A stream's feed with the memory in its path: a session in the log for as long as it runs,
/// the channel's recent rows as history when the last session ended minutes ago, and every
/// comment looked up, badged and logged before the bar sees it. Events pass in order; a hidden
/// viewer's rows stop here.
///
/// The channel is the stream's address (`MemoryHook.channel(of:)`) until the feed names the
/// channel it belongs to (`FeedEvent.channel`: a YouTube video's channel, a niconico programme's
/// community, channel or user), so every stream of one channel shares its viewers and 初見.
struct MemoryFeed: CommentFeed {
    let inner: any CommentFeed
    let hook: MemoryHook
    let channel: ChannelRef

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let run = MemoryRun(hook: hook, channel: channel)
        await hook.ready()
        // Read before this run's own session exists, which would count as "the last one".
        for line in run.history() { emit(.comment(line)) }
        await inner.run { event in
            for passed in run.pass(event) { emit(passed) }
        }
        run.end()
    }
}

/// One run of one feed: its session in whichever log is in use (a new one when `remember` or
/// `log_path` changes mid-run, or when the feed names its channel after a session began).
/// The session opens with the first row or deletion the feed sends, on the channel known then;
/// a run that was live without any is logged as a session when it ends.
final class MemoryRun: Sendable {
    private let hook: MemoryHook
    private let state: Mutex<State>

    private struct State {
        /// The address's channel, then the one the feed named.
        var channel: ChannelRef
        var session: (memory: ChatMemory, token: UInt64)?
        /// When the feed first said it was live (unix seconds), for a run without rows.
        var liveAt: Double?
        /// A session was opened in this run (a row or a deletion passed).
        var began = false
    }

    /// The address's channel (the stream id the streamer gave): nobody may take its name
    /// either, once the feed named another channel.
    private let address: ChannelRef

    init(hook: MemoryHook, channel: ChannelRef) {
        self.hook = hook
        address = channel
        state = Mutex(State(channel: channel))
    }

    private func reserved(besides channel: ChannelRef) -> [String] {
        channel == address ? [] : [address.channel]
    }

    var channel: ChannelRef { state.withLock { $0.channel } }

    /// The rows to start with (none when the log is off or the channel's last session is old).
    func history() -> [ChatLine] {
        let current = hook.current()
        guard let memory = current.memory else { return [] }
        return memory.history(of: channel, limit: current.maxLines, now: WallClock.now())
    }

    /// The events as the bar should get them: a row annotated, or dropped (a hidden viewer's);
    /// a channel named by the feed moves the run to it.
    func pass(_ event: FeedEvent) -> [FeedEvent] {
        let now = WallClock.now()
        let current = hook.current()
        if case .channel(let id) = event {
            // Named before any row: the bar starts with that channel's history, as it would have
            // with the channel as its address.
            guard rename(id, now: now), let memory = current.memory else { return [event] }
            return memory.history(of: channel, limit: current.maxLines, now: now).map(FeedEvent.comment) + [event]
        }
        if case .status(.live) = event { state.withLock { $0.liveAt = $0.liveAt ?? now } }
        guard let memory = current.memory else { return [Self.withoutMemory(event, current.options)] }
        switch event {
        case .comment(let line):
            let (token, channel) = session(in: memory, now: now, recording: current.recording)
            return memory.receive(line, session: token, channel: channel, options: current.options, now: now,
                                  reserved: reserved(besides: channel)).map { [.comment($0)] } ?? []
        case .gift(let line):
            let (token, channel) = session(in: memory, now: now, recording: current.recording)
            return memory.receive(line, session: token, channel: channel, options: current.options, now: now)
                .map { [.gift($0)] } ?? []
        case .delete(let id):
            let (token, channel) = session(in: memory, now: now, recording: current.recording)
            memory.delete(messageID: id, session: token, channel: channel, now: now)
        case .deleteUser(let user):
            let (token, channel) = session(in: memory, now: now, recording: current.recording)
            memory.deleteMessages(ofUser: user, session: token, channel: channel, now: now)
        default:
            break
        }
        return [event]
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

    /// The feed named its channel: later rows belong to it (a session already open on the
    /// address's channel ends; the next row opens one on the named channel). Whether the run
    /// moved to it before any row passed.
    private func rename(_ id: String, now: Double) -> Bool {
        guard let id = FeedEvent.channelID(id) else { return false }
        let (ended, fresh) = state.withLock { state -> ((memory: ChatMemory, token: UInt64)?, Bool) in
            let named = ChannelRef(platform: state.channel.platform, channel: id)
            guard named != state.channel else { return (nil, false) }
            state.channel = named
            defer { state.session = nil }
            return (state.session, !state.began)
        }
        if let ended { ended.memory.endSession(ended.token, now: now) }
        return fresh
    }

    /// The run's session in `memory` (opened now if it has none there: the first row, or the log
    /// changed) and the channel it is on.
    private func session(in memory: ChatMemory, now: Double, recording: Double?) -> (token: UInt64, channel: ChannelRef) {
        let (token, channel, replaced, opened) = state.withLock {
            state -> (UInt64, ChannelRef, (memory: ChatMemory, token: UInt64)?, Bool) in
            if let session = state.session, session.memory === memory { return (session.token, state.channel, nil, false) }
            let replaced = state.session
            // A run that went live before its first row began then.
            let token = memory.openSession(state.channel, now: min(state.liveAt ?? now, now))
            state.session = (memory, token)
            state.began = true
            return (token, state.channel, replaced, true)
        }
        if let replaced { replaced.memory.endSession(replaced.token, now: now) }
        if opened, let recording { memory.recordingStarted(at: recording) }
        return (token, channel)
    }

    /// The run is over: its session ends. A run that was live without a row or a deletion is
    /// logged as a session now (from when it went live).
    func end() {
        let now = WallClock.now()
        let (open, liveAt) = state.withLock { state -> ((memory: ChatMemory, token: UInt64)?, Double?) in
            defer { state.session = nil }
            return (state.session, state.liveAt)
        }
        if let open {
            open.memory.endSession(open.token, now: now)
            return
        }
        guard let liveAt else { return }
        let current = hook.current()
        guard let memory = current.memory else { return }
        let token = memory.openSession(channel, now: min(liveAt, now))
        if let recording = current.recording { memory.recordingStarted(at: recording) }
        memory.endSession(token, now: now)
    }
}
