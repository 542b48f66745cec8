// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Streamer.bot's and Cuebot's HTTP server: each action one `POST /DoAction` with the JSON body
/// (docs.streamer.bot, api/http/requests/do-action), answered `204 No Content`, to the address the
/// target's host resolved to (`LocalAddresses`).
final class HTTPActionLink: ActionLink {
    let target: ActionTarget
    let path: String
    /// The address the target's host resolved to, kept until a failure (then looked up again).
    private let address = Mutex<SocketAddress?>(nil)

    init(target: ActionTarget, path: String) {
        self.target = target
        self.path = path
    }

    /// The client's own timeouts are backstops only: the action's deadline comes first. Its pool
    /// keeps the connection open between actions (Streamer.bot's server keeps it alive).
    static let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                   configuration: .init(redirectConfiguration: .disallow,
                                                        timeout: .init(connect: .seconds(3), read: .seconds(30))))
    /// An answer is a status line and nothing much: more is not read.
    static let maxAnswerBytes = 64 * 1024

    func send(_ action: DoAction) async throws(ActionFailure) {
        let target = self.target
        let path = self.path
        let known = address.withLock { $0 }
        try await ActionLinks.bounded("\(target)") { () async -> Result<Void, ActionFailure> in
            do throws(LocalAddresses.Refusal) {
                let resolved: SocketAddress
                if let known {
                    resolved = known
                } else {
                    resolved = try await LocalAddresses.resolve(target)
                    self.address.withLock { $0 = resolved }
                }
                return await Self.post(action, to: "http://\(LocalAddresses.urlHost(resolved)):\(target.port)\(path)",
                                       shown: target)
            } catch {
                return .failure(ActionFailure(description: error.description))
            }
        }
    }

    private static func post(_ action: DoAction, to url: String, shown: ActionTarget) async
        -> Result<Void, ActionFailure> {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: action.httpBody))
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: maxAnswerBytes)
            guard (200..<300).contains(response.status.code) else {
                return .failure(ActionFailure(description: "\(shown) answered \(response.status.code) \(response.status.reasonPhrase)"
                                              + (response.status.code == 404 ? " (is the address's path /DoAction?)" : ""),
                                              answered: true))
            }
            return .success(())
        } catch {
            return .failure(ActionFailure(description: "\(shown): \(Self.reason(error))"))
        }
    }

    /// AsyncHTTPClient's and NIO's errors, as a streamer reads them.
    static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectTimeout") { return "does not answer" }
        if text.contains("Connection refused") || text.contains("connectionRefused") || text.contains("ECONNREFUSED") {
            return "nothing listens there (is its HTTP server on?)"
        }
        return text.count > 120 ? String(text.prefix(120)) + "…" : text
    }

    func reset() async {
        address.withLock { $0 = nil }
    }
}
