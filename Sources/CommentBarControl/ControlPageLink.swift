// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// `commentbar control-url`'s side: asks the renderer serving `port` for a one-time link to its
/// page (`POST /api/page-link`, the token in the Authorization header), so the token itself is
/// never in an address or a command line. The link works once, for about a minute. The server
/// first proves it is the token's renderer (`GET /api/hello`): a program squatting the port is
/// never sent the token.
public enum ControlPageLink {
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The link, after the server proved it holds `token` (`ControlHello`): the token is sent
    /// only to this user's renderer, never to a program that took the port first.
    public static func request(port: Int, token: String) async throws(Problem) -> String {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // The token goes to the renderer on loopback, never through a proxy set for the web.
        configuration.proxy = nil
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: Result<String, Problem>
        do throws(Problem) {
            try await proveServer(port: port, token: token, client: client)
            result = .success(try await pageLink(port: port, token: token, client: client))
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        switch result {
        case .success(let link): return link
        case .failure(let problem): throw problem
        }
    }

    /// `GET /api/hello` with a fresh nonce, and the proof checked against `token` and `port`.
    static func proveServer(port: Int, token: String, client: HTTPClient) async throws(Problem) {
        let nonce = ControlHello.makeNonce()
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(ControlHello.path)?nonce=\(nonce)")
        let (status, body) = try await exchange(request, port: port, client: client)
        guard status == .ok,
              let answer = try? JSONDecoder().decode(ControlHello.Answer.self, from: Data(body.readableBytesView)),
              ControlHello.holds(answer.proof, token: token, port: port, nonce: nonce) else {
            throw Problem(description: "what listens on port \(port) is not this user's Comment Bar (it could not prove "
                            + "it holds the control token, answering \(status.code)): the token was not sent. Is another "
                            + "program using the port? Choose another Control port in the source's properties")
        }
    }

    /// `POST /api/page-link` with the token.
    static func pageLink(port: Int, token: String, client: HTTPClient) async throws(Problem) -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/page-link")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: "{}"))
        let (status, body) = try await exchange(request, port: port, client: client)
        guard status == .ok else {
            throw Problem(description: "the server on port \(port) answered \(status.code) \(status.reasonPhrase): "
                            + (status == .unauthorized ? "it is not this user's Comment Bar, or another token" : String(buffer: body)))
        }
        guard let link = try? JSONDecoder().decode(ControlRoutes.PageLinkBody.self, from: Data(body.readableBytesView)) else {
            throw Problem(description: "the server on port \(port) gave no page link: is it a Comment Bar?")
        }
        return link.url
    }

    private static func exchange(_ request: HTTPClientRequest, port: Int,
                                 client: HTTPClient) async throws(Problem) -> (HTTPResponseStatus, ByteBuffer) {
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            return (response.status, try await response.body.collect(upTo: 64 * 1024))
        } catch {
            throw Problem(description: "nothing answers on port \(port): is a Comment Bar source with \"Control page\" "
                            + "ticked and this Control port showing in OBS?")
        }
    }
}
