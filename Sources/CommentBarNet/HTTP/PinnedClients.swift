// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import NIOCore
import NIOPosix
import Synchronization

/// One HTTP client per host, each bound (by AsyncHTTPClient's DNS override) to the address
/// `AddressPolicy` checked or a `COMMENTBAR_CONNECT_TO` rule names, so the connection goes to that
/// very address and not to whatever a second lookup answers (a name that resolves to a public
/// address, then to 127.0.0.1, reaches nothing). The TLS certificate is still checked against the
/// host name. A few hosts at most: the least recently used client is retired (shut down once its
/// requests are long over). `byName` connects by name: for the server the streamer typed.
final class PinnedClients: Sendable {
    static let maxHosts = 32
    /// Retired clients are shut down this long after: every request has a shorter deadline.
    static let retireAfter: Duration = .seconds(15 * 60)

    private struct Pin {
        var address: String
        var client: HTTPClient
        var lastUse: UInt64
    }

    private struct Pins {
        var byHost: [String: Pin] = [:]
        var useCounter: UInt64 = 0
    }

    private let configuration: HTTPClient.Configuration
    private let pins = Mutex(Pins())
    let byName: HTTPClient

    init(configuration: HTTPClient.Configuration) {
        self.configuration = configuration
        byName = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// The configuration of a client that connects to `address` for `host` (`host` exactly as
    /// AsyncHTTPClient reads it from the URL: the override is looked up by that spelling), or by
    /// name when `address` is nil.
    func configuration(host: String, address: String?) -> HTTPClient.Configuration {
        var configuration = configuration
        if let address {
            // Both spellings (not a literal: the two are one key when the host is lower case already).
            configuration.dnsOverride[host] = address
            configuration.dnsOverride[host.lowercased()] = address
        }
        return configuration
    }

    /// The client for `host`, connecting to one of `addresses` (all already checked or named).
    func client(host: String, addresses: [String]) -> HTTPClient {
        let key = host.lowercased()
        let (client, retired) = pins.withLock { pins -> (HTTPClient, [HTTPClient]) in
            pins.useCounter &+= 1
            if var pin = pins.byHost[key], addresses.contains(pin.address) {
                pin.lastUse = pins.useCounter
                pins.byHost[key] = pin
                return (pin.client, [])
            }
            var retired: [HTTPClient] = []
            if let old = pins.byHost.removeValue(forKey: key) { retired.append(old.client) }
            let address = addresses.first ?? key
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                                    configuration: configuration(host: host, address: address))
            pins.byHost[key] = Pin(address: address, client: client, lastUse: pins.useCounter)
            while pins.byHost.count > Self.maxHosts,
                  let oldest = pins.byHost.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                retired.append(oldest.value.client)
                pins.byHost[oldest.key] = nil
            }
            return (client, retired)
        }
        for old in retired {
            Task.detached {
                try? await Task.sleep(for: Self.retireAfter)
                try? await old.shutdown()
            }
        }
        return client
    }

    /// Shuts the clients in use down (a transport made for a test; the renderer's lives as long as
    /// it does). Retired ones are shut down by their own timers.
    func shutdown() async {
        let clients = pins.withLock { pins in
            defer { pins.byHost.removeAll() }
            return pins.byHost.values.map(\.client)
        }
        for client in clients + [byName] { try? await client.shutdown() }
    }
}
