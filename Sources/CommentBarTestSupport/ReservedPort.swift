// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A loopback TCP port taken by binding port 0 and kept: nothing else can listen on it while the
/// value lives, so a test that needs "a port where nobody answers" (or one that is taken) never
/// races another process for it. A server of our own is started on port 0 and asked for its
/// port instead; this is for the ports a test must know before anything listens.
public final class ReservedPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    /// `listening`: also listen (connections then wait unanswered in the backlog); otherwise a
    /// connection to it is refused.
    public init(listening: Bool = false) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        port = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                guard bind(fd, generic, length) == 0, getsockname(fd, generic, &length) == 0 else { return 0 }
                return Int(UInt16(bigEndian: pointer.pointee.sin_port))
            }
        }
        if listening { listen(fd, 16) }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
