// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// What the renderer says of a Control port, for the dock and `commentbar control-url`: a file
/// `control-port-PORT.status` beside the token (the same folder, the same checks: ours, 0600, no
/// symlink) holding `bound PID` while a renderer serves the port, or `unbound PID` while the one
/// that wants it cannot bind it (another program has it). The dock sends nothing to a port said
/// unbound: whatever listens there is not the renderer. A file whose process is gone says
/// nothing (a renderer that crashed), nor does a missing one; the hello (`ControlHello`) still
/// guards the token then.
public enum ControlPortStatus {
    public enum Said: Equatable, Sendable {
        case bound(pid: Int32)
        case unbound(pid: Int32)
        /// No file, a file that cannot be trusted, or its process is gone.
        case unknown
    }

    static func fileName(port: Int) -> String { "control-port-\(port).status" }

    /// What the file for `port` in `folder` (default: the token's) says now.
    public static func read(port: Int, folder: String? = nil) -> Said {
        guard let folder = folder ?? ControlToken.folder(),
              let text = PrivateFiles.read(folder + "/" + fileName(port: port), limit: 64) else { return .unknown }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let pid = Int32(words[1]), pid > 0, isRunning(pid) else { return .unknown }
        switch words[0] {
        case "bound": return .bound(pid: pid)
        case "unbound": return .unbound(pid: pid)
        default: return .unknown
        }
    }

    /// This process serves `port` (`bound`) or cannot bind it. An `unbound` never replaces the
    /// `bound` of another running renderer (two sources given the same port: one of them has it).
    static func write(bound: Bool, port: Int, folder: String?) throws(PrivateFiles.Problem) {
        guard port > 0, let folder = folder ?? ControlToken.folder() else { return }
        let me = getpid()
        if !bound, case .bound(let pid) = read(port: port, folder: folder), pid != me { return }
        try PrivateFiles.replace(folder + "/" + fileName(port: port), "\(bound ? "bound" : "unbound") \(me)\n")
    }

    /// The file for `port` goes, if this process wrote it (the port is no longer wanted here).
    static func remove(port: Int, folder: String?) {
        guard port > 0, let folder = folder ?? ControlToken.folder() else { return }
        let me = getpid()
        switch read(port: port, folder: folder) {
        case .bound(let pid) where pid == me, .unbound(let pid) where pid == me:
            unlink(folder + "/" + fileName(port: port))
        default:
            return
        }
    }

    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
