// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import CommentBarSupport
import Logging
import Synchronization

/// The audience's boards in the memory's SQLite file (issue 48): while `remember` and `control`
/// are on, every change of the poll, the queue and the giveaway goes to the memory's writer, and
/// a renderer that starts on the same file for the same source comes back with them as they were
/// (an open poll still open, unless its seconds ran out meanwhile). A source is named in the file
/// by its control port (`source`): the API that runs its boards, and one no other running source
/// has. With the memory off nothing is kept.
final class BoardMemoryPart: SessionPart {
    private let polls: PollBoard
    private let queue: QueueBoard
    private let giveaways: GiveawayBoard
    private let hook: MemoryHook
    private let log: Logger
    /// The file and source the boards are kept in now, and a number bumped at each change: a
    /// read that finishes after a newer change is not applied.
    private let attached = Mutex<(target: Target?, generation: UInt64)>((nil, 0))

    struct Target: Equatable, Sendable {
        var path: String
        var source: String
    }

    init(polls: PollBoard, queue: QueueBoard, giveaways: GiveawayBoard, memory: MemoryHook, log: Logger) {
        self.polls = polls
        self.queue = queue
        self.giveaways = giveaways
        hook = memory
        self.log = log
    }

    /// The name of a source's boards in the file.
    static func source(controlPort: Int) -> String { String(controlPort) }

    func apply(_ input: inout SessionInput) {
        guard let settings = input.message.settings else { return }
        let path = settings.remember && settings.control ? MemoryFiles.path(setting: settings.logPath) : nil
        let target = path.map { Target(path: $0, source: Self.source(controlPort: settings.controlPort)) }
        let generation = attached.withLock { state -> UInt64? in
            guard state.target != target else { return nil }
            state = (target, state.generation + 1)
            if target == nil { keep(nil, SavedBoards()) }
            return state.generation
        }
        guard let generation, let target else { return }
        Task { await attach(target, generation: generation) }
    }

    /// Reads what the file kept of the source (a file not made yet keeps nothing: it is not made
    /// for that), then keeps the boards there from now on.
    private func attach(_ target: Target, generation: UInt64) async {
        var saved = SavedBoards()
        if MemoryFiles.exists(target.path), let memory = hook.memory {
            do {
                saved = try await memory.savedBoards(of: target.source)
            } catch {
                log.warning("boards: what the chat log kept of them could not be read: \(error)")
            }
        }
        let memory = LazyMemory(hook)
        let keeping = BoardKeeping(source: target.source) { record in memory.keep(record) }
        let applied = attached.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            keep(keeping, saved)
            return true
        }
        guard applied else { return }
        var restored: [String] = []
        if let poll = saved.poll, polls.current?.token == poll.token {
            restored.append(polls.current?.isOpen(at: WallClock.now()) == true ? "the open poll" : "the last poll")
        }
        if saved.queue != nil, queue.current != nil { restored.append("the queue") }
        if let giveaway = saved.giveaway, giveaways.current?.token == giveaway.token { restored.append("the giveaway") }
        if !restored.isEmpty {
            log.info("boards: restored \(restored.joined(separator: ", ")) of source \(target.source) from \(target.path)")
        }
    }

    /// The hook's memory, asked for at the first record (so a file that does not exist yet is
    /// made only once a board changes) and then held: a vote costs one lock and the writer's
    /// queue, not the hook's state. A new file or source is a new one (`apply`).
    private final class LazyMemory: Sendable {
        private let hook: MemoryHook
        private let memory = Mutex<ChatMemory?>(nil)

        init(_ hook: MemoryHook) { self.hook = hook }

        func keep(_ record: BoardRecord) {
            let memory = self.memory.withLock { held -> ChatMemory? in
                if held == nil { held = hook.memory }
                return held
            }
            memory?.keep(record)
        }
    }

    private func keep(_ keeping: BoardKeeping?, _ saved: SavedBoards) {
        polls.keep(keeping, restoring: saved.poll)
        queue.keep(keeping, restoring: saved.queue)
        giveaways.keep(keeping, restoring: saved.giveaway, commentsThisStream: saved.commentsThisStream)
    }
}
