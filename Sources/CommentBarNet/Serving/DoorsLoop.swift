// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOPosix

/// The one event loop the doors share: the control server, the OneComme server and the actions'
/// sender (issues 46 and 49). Every comment is work for each door that is open (a push to each
/// page, an action's request); on one loop, the hand-overs of one comment wake one thread once
/// (NIO wakes a loop only when no wake-up is pending), where a loop per door woke a thread per
/// door (the doors bench: 4.5 wake-ups a comment more with the doors on, 3.2 on one loop). It is
/// one of NIO's shared loops, so a door that is off costs no thread; a server that stops closes
/// its own sockets and timers (`ConnectionSlots.closeAll`), as the loop goes on.
public enum DoorsLoop {
    public static let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
}
