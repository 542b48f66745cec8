// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore

/// An event loop as a task's preferred executor: a task that reads or writes a channel of this
/// loop runs where the channel's events happen, so taking a message, handling it and writing the
/// next all happen on that one thread. Without it each hop went from the loop to Swift's
/// cooperative pool and back, and each woke a thread (perf's sched_wakeup shows where).
public final class EventLoopTaskExecutor: TaskExecutor {
    public let loop: any EventLoop

    public init(_ loop: any EventLoop) {
        self.loop = loop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // From the loop's own thread this only queues (no wake-up); from another it wakes the loop once.
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
