// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Glibc
import Logging
import Synchronization

/// The token a running server accepts, kept in step with its file: before every check the file's
/// identity (inode, size, times) is compared with the one read last, one `lstat` (and the server
/// looks once a second as well, for its open pages). A file replaced (`commentbar control-url
/// --rotate`, or deleted and so made anew) is read again and `changed` is called: the old token
/// stops working at once, in every server of this user. A file that cannot be trusted any more
/// leaves no token at all: everything is refused until it can be read.
public final class TokenWatch: Sendable {
    private let path: String?
    private let folder: String?
    private let log: Logger?
    private let state: Mutex<State>
    private let changed = Mutex<Callback<Void>?>(nil)

    struct State {
        var token: String?
        var identity: FileIdentity?
    }

    /// What changes when the file is replaced or written.
    struct FileIdentity: Equatable {
        var device: UInt, inode: UInt, size: Int
        var modified: Int, modifiedNanoseconds: Int, changed: Int, changedNanoseconds: Int
    }

    /// One token for good (tests).
    public init(fixed token: String) {
        path = nil
        folder = nil
        log = nil
        state = Mutex(State(token: token, identity: nil))
    }

    /// The token of `folder` (default: `ControlToken.folder()`), made if there is none.
    public init(folder: String? = nil, log: Logger) throws(ControlToken.Problem) {
        guard let folder = folder ?? ControlToken.folder() else {
            throw ControlToken.Problem(description: "control token: neither XDG_CONFIG_HOME nor HOME is set")
        }
        let loaded = try ControlToken.load(folder: folder)
        if let note = loaded.note { log.info("\(note)") }
        self.folder = folder
        self.log = log
        let path = folder + "/" + ControlToken.fileName
        self.path = path
        state = Mutex(State(token: loaded.token, identity: Self.identity(path)))
    }

    /// Called (once per change, on the thread that noticed it) when the token changed; nil: no one.
    func onChange(_ body: (@Sendable () -> Void)?) {
        changed.withLock { $0 = body.map { body in Callback { body() } } }
    }

    /// The token now (nil: none can be trusted), the file read again first if it changed.
    func current() -> String? {
        guard let path, let folder else { return state.withLock { $0.token } }
        let now = Self.identity(path)
        let (token, rotated) = state.withLock { state -> (String?, Bool) in
            guard now == nil || now != state.identity else { return (state.token, false) }
            let before = state.token
            do throws(ControlToken.Problem) {
                let loaded = try ControlToken.load(folder: folder)
                if let note = loaded.note { log?.info("\(note)") }
                state.token = loaded.token
            } catch {
                log?.error("control page: \(error.description): every request is refused until it can be read")
                state.token = nil
            }
            state.identity = Self.identity(path)
            return (state.token, state.token != before)
        }
        if rotated {
            log?.info("control page: the control token changed: the old one no longer works, open pages were told")
            changed.withLock { $0 }?.call(())
        }
        return token
    }

    static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt(info.st_dev), inode: UInt(info.st_ino), size: Int(info.st_size),
                            modified: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec,
                            changed: info.st_ctim.tv_sec, changedNanoseconds: info.st_ctim.tv_nsec)
    }
}
