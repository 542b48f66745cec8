// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Hosts the streamer typed themselves (a `server` setting: a relay or an API on their own
/// machine or network): the streamer's choice, not a feed's, so `AddressPolicy` does not
/// refuse them. Only the exact host and port typed; a redirect elsewhere is checked as usual.
package enum StreamerTypedHosts {
    private static let hosts = Mutex(Set<String>())

    package static func allow(host: String, port: Int) {
        hosts.withLock { set in
            if set.count < 64 { set.insert(key(host, port)) }
        }
    }

    package static func allows(host: String, port: Int) -> Bool {
        hosts.withLock { $0.contains(key(host, port)) }
    }

    private static func key(_ host: String, _ port: Int) -> String {
        "\(AddressPolicy.hostWithoutBrackets(host).lowercased()):\(port)"
    }
}
