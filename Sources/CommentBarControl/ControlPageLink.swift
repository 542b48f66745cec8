// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// `commentbar control-url`'s side: asks the renderer serving `port` for a one-time link to its
/// page (`POST /api/page-link`, the token in the Authorization header), so the token itself is
/// never in an address or a command line. The link works once, for about a minute.
public enum ControlPageLink {
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func request(port: Int, token: String) async throws(Problem) -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/page-link")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: "{}"))
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let answer: Result<(HTTPResponseStatus, ByteBuffer), any Error>
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            answer = .success((response.status, try await response.body.collect(upTo: 64 * 1024)))
        } catch {
            answer = .failure(error)
        }
        try? await client.shutdown()
        guard case .success(let (status, body)) = answer else {
            throw Problem(description: "nothing answers on port \(port): is a Comment Bar source with \"Control page\" "
                            + "ticked and this Control port showing in OBS?")
        }
        guard status == .ok else {
            throw Problem(description: "the server on port \(port) answered \(status.code) \(status.reasonPhrase): "
                            + (status == .unauthorized ? "it is not this user's Comment Bar, or another token" : String(buffer: body)))
        }
        guard let link = try? JSONDecoder().decode(ControlRoutes.PageLinkBody.self, from: Data(body.readableBytesView)) else {
            throw Problem(description: "the server on port \(port) gave no page link: is it a Comment Bar?")
        }
        return link.url
    }
}
