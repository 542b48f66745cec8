// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore
import NIOPosix

/// The actions target may be this machine or the streamer's own network, nothing else: its host is
/// resolved once (off the event loops) and its address must be one the feeds may *not* reach
/// (`AddressPolicy`: loopback, private, link-local, unique-local). Requests then go to that very
/// address, so a second lookup cannot lead elsewhere.
enum LocalAddresses {
    struct Refusal: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    static func resolve(_ target: ActionTarget) async throws(Refusal) -> SocketAddress {
        let host = target.host
        let port = target.port
        let address: SocketAddress
        do {
            address = try await NIOThreadPool.singleton.runIfActive {
                try SocketAddress.makeAddressResolvingHost(host, port: port)
            }
        } catch {
            throw Refusal(description: "\(target.shownHost): cannot find this host (\(error))")
        }
        guard !AddressPolicy.isPublic(address) else {
            throw Refusal(description: "\(target.shownHost) is \(address.ipAddress ?? "a public address"), on the internet: "
                          + "actions go only to this computer or your home network")
        }
        return address
    }

    /// `resolve`, a refusal being the action's failure.
    static func address(of target: ActionTarget) async throws(ActionFailure) -> SocketAddress {
        do {
            return try await resolve(target)
        } catch {
            throw ActionFailure(description: error.description)
        }
    }

    /// The address as a URL's host writes it.
    static func urlHost(_ address: SocketAddress) -> String {
        let ip = address.ipAddress ?? "127.0.0.1"
        return ip.contains(":") ? "[\(ip)]" : ip
    }
}
