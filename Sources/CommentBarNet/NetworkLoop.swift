// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOPosix

/// The one event loop the chat feeds and the doors share (issues 46 and 49): the feeds'
/// connections, the tasks that read them (`executor`), the control server, the OneComme server
/// and the actions' sender. A comment is read, decoded, put on the bar and handed to every open
/// door on this one thread: the feed's task resumes on the loop that read the bytes, and a door's
/// write or an action's hand-over from there only queues work on the loop it is already on. Apart,
/// each hop woke a thread: the read woke a thread of Swift's pool for the feed's task, and the
/// doors' hand-over woke their loop again (`make bench-doors` counts the wake-ups). It is one of
/// NIO's shared loops, so a door that is off costs no thread; a server that stops closes its own
/// sockets and timers (`ConnectionSlots.closeAll`), as the loop goes on.
public enum NetworkLoop {
    public static let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    /// The loop as a task's preferred executor.
    public static let executor = EventLoopTaskExecutor(loop)
}
