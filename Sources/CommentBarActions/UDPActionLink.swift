// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOPosix
import Synchronization

/// Streamer.bot's and Cuebot's UDP server (docs.streamer.bot, api/udp/requests/do-action): each
/// action one datagram holding the `DoAction` request. UDP has no answer: an action is sent when
/// the datagram leaves (a target that is down is noticed only when this machine says the port is
/// closed); the HTTP or WebSocket server tells more.
final class UDPActionLink: ActionLink {
    let target: ActionTarget
    /// The sender's loop (`NetworkLoop`): its socket lives there too.
    private let loop: any EventLoop
    private let state = Mutex<(any Channel)?>(nil)

    init(target: ActionTarget, loop: any EventLoop) {
        self.target = target
        self.loop = loop
    }

    func send(_ action: DoAction) async throws(ActionFailure) {
        try await ActionLinks.bounded("\(target)") { () async -> Result<Void, ActionFailure> in
            do throws(ActionFailure) {
                let channel = try await self.channel()
                do {
                    try await channel.writeAndFlush(ByteBuffer(bytes: action.request(id: nil))).get()
                } catch {
                    return .failure(ActionFailure(description: "\(self.target): \(HTTPActionLink.reason(error))"))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
    }

    func reset() async {
        let channel = state.withLock { channel -> (any Channel)? in
            defer { channel = nil }
            return channel
        }
        try? await channel?.close()
    }

    /// A datagram socket connected to the target's address (its errors then come back to it).
    private func channel() async throws(ActionFailure) -> any Channel {
        if let channel = state.withLock({ $0 }) { return channel }
        let address = try await LocalAddresses.address(of: target)
        do {
            let channel = try await DatagramBootstrap(group: loop).connect(to: address).get()
            state.withLock { $0 = channel }
            return channel
        } catch {
            throw ActionFailure(description: "\(target): \(HTTPActionLink.reason(error))")
        }
    }
}
