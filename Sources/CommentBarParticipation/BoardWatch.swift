// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Synchronization

/// Who hears that a board changed at all (the bar's strip, issue 48), apart from the board's
/// events: opening or closing the queue, marking players done and dismissing a poll's result are
/// no events of the API, and the bar must still show them. Called outside the board's lock.
final class BoardWatch: Sendable {
    private let watcher = Mutex<Callback<Void>?>(nil)

    func set(_ watcher: @escaping @Sendable () -> Void) {
        self.watcher.withLock { $0 = Callback(watcher) }
    }

    func changed() {
        watcher.withLock { $0 }?.call(())
    }
}
