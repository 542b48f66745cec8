// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The two things full Foundation gave here (Thread, FileHandle), without it: the renderer
/// links FoundationEssentials only, so no ICU data (34 MB) is in the binary.
public enum POSIXIO {
    /// Writes all of `text` to `fd`, retrying after short writes and EINTR.
    public static func writeAll(_ text: String, fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, base + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Runs `body` on a new detached thread (for a blocking read).
    public static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            if let context { Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run() }
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class ThreadBody: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
