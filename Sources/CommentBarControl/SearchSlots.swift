// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The clients with a search running (`ControlAccess.Credential.client`): at most one each.
final class SearchSlots: Sendable {
    private let running = Mutex(Set<String>())

    /// Whether `client` may start one (then it must call `end`).
    func begin(_ client: String) -> Bool {
        running.withLock { $0.insert(client).inserted }
    }

    func end(_ client: String) {
        _ = running.withLock { $0.remove(client) }
    }
}
