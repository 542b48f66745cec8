// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import AsyncHTTPClient
import CommentBarFeeds
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The renderer's `WebFetching`: HTTPS over AsyncHTTPClient, for the platforms' web APIs and the
/// pictures. Certificates are always verified (plus `COMMENTBAR_CA_FILE`); `COMMENTBAR_CONNECT_TO`
/// is honoured with the certificate still checked against the URL's host; every request and every
/// redirect goes through `AddressPolicy` (public hosts only, connected at the checked address)
/// unless a connect-to rule names its address or it is the server the streamer typed
/// (`WebRequest.streamerServer`). The body is cut off at a byte cap, redirects are followed only to
/// `https://`, and one deadline covers the whole exchange, the body included (AsyncHTTPClient's own
/// deadline ends at the answer's head: a host that sends its headers and then a byte every few
/// seconds is cut off at the deadline all the same). Nothing here reads a local file: the only
/// scheme is https.
package final class HTTPSTransport: WebFetching {
    /// The renderer's: made from the process's environment on first use, never shut down. Feeds get
    /// it through their `FeedRequest`; tests make their own (and shut them down).
    package static let shared = HTTPSTransport()

    private struct Setup: Sendable {
        var connectTo: ConnectTo
        var clients: PinnedClients
    }

    /// A bad variable fails every request with its reason.
    private let setup: Result<Setup, WebFailure>

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        setup = Self.makeSetup(environment)
    }

    /// Shuts this transport's clients down (for a transport a test made).
    package func shutdown() async {
        if case .success(let setup) = setup { await setup.clients.shutdown() }
    }

    package func fetch(_ request: WebRequest) async throws(WebFailure) -> WebResponse {
        let deadline = ContinuousClock.now + request.limits.timeout
        return try await Deadline.run(until: deadline, timedOut: .timedOut(request.url), cancelled: .cancelled(request.url)) {
            () async throws(WebFailure) -> WebResponse in
            try await self.exchange(request, deadline: deadline)
        }
    }

    package func open(_ request: WebRequest) async throws(WebFailure) -> WebBodyStream {
        let deadline = ContinuousClock.now + request.limits.timeout
        let setup = try setup.get()
        let (target, route) = try await Deadline.run(until: deadline, timedOut: .timedOut(request.url),
                                                     cancelled: .cancelled(request.url)) {
            () async throws(WebFailure) -> (HTTPTarget, ResolvedRoute) in
            try await self.resolve(request, setup: setup)
        }
        // A client of its own, shut down at the deadline: that ends the body wherever it is.
        let configuration = setup.clients.configuration(host: target.connectionKey, address: route.address)
        let body = StreamedBody(client: HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                                                   configuration: configuration),
                                deadline: deadline, url: request.url)
        let response: HTTPClientResponse
        do {
            response = try await body.client.execute(Self.message(request, target: target),
                                                     deadline: Self.nio(Self.clientDeadline(deadline, request)))
        } catch {
            body.close()
            throw body.failure(error)
        }
        guard response.status.code == 200 else {
            body.close()
            throw .status(Int(response.status.code), url: request.url)
        }
        return WebBodyStream { [chunks = response.body] in
            var iterator = chunks.makeAsyncIterator()
            return WebBodyStream.AsyncIterator { () async throws(WebFailure) -> [UInt8]? in
                do {
                    guard let chunk = try await iterator.next() else {
                        body.close()
                        return nil
                    }
                    return Array(chunk.readableBytesView)
                } catch {
                    body.close()
                    throw body.failure(error)
                }
            }
        }
    }

    /// The redirects, each hop checked again; the body of the 200 at the end, capped.
    private func exchange(_ request: WebRequest, deadline: ContinuousClock.Instant) async throws(WebFailure) -> WebResponse {
        let setup = try setup.get()
        var current = request
        for _ in 0...request.limits.maxRedirects {
            let (target, route) = try await resolve(current, setup: setup)
            let client = route.address == nil ? setup.clients.byName
                : setup.clients.client(host: target.connectionKey, addresses: route.candidates)
            let response: HTTPClientResponse
            do {
                response = try await client.execute(Self.message(current, target: target),
                                                    deadline: Self.nio(Self.clientDeadline(deadline, request)))
            } catch {
                throw Self.failure(error, url: request.url)
            }
            switch response.status.code {
            case 200:
                let maxBytes = request.limits.maxBytes
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
                    throw .tooLarge(request.url, maxBytes: maxBytes, length: length)
                }
                do {
                    let body = try await response.body.collect(upTo: maxBytes)
                    return WebResponse(body: Array(body.readableBytesView),
                                       cacheControl: response.headers.first(name: "Cache-Control"))
                } catch is NIOTooManyBytesError {
                    throw .tooLarge(request.url, maxBytes: maxBytes)
                } catch {
                    throw Self.failure(error, url: request.url)
                }
            case 301, 302, 303, 307, 308:
                guard let location = response.headers.first(name: "Location"),
                      let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteString,
                      next.lowercased().hasPrefix("https://") else {
                    throw .redirectNotHTTPS(request.url)
                }
                current.url = next
                // As browsers do: 303 (and 301/302 after a POST) become a GET without a body.
                if response.status.code == 303 || (current.method == .post && response.status.code < 307) {
                    current.method = .get
                    current.body = nil
                    current.headers.removeAll { $0.name.lowercased() == "content-type" }
                }
            default:
                throw .status(Int(response.status.code), url: request.url)
            }
        }
        throw .tooManyRedirects(request.url, max: request.limits.maxRedirects)
    }

    /// Where the connection goes: a named or checked address (`address`, with the other checked
    /// ones as `candidates`), or nil to connect by name.
    private struct ResolvedRoute: Sendable {
        var address: String?
        var candidates: [String]
    }

    /// The target of `request` and where its connection may go, or why it may not be made.
    private func resolve(_ request: WebRequest, setup: Setup) async throws(WebFailure) -> (HTTPTarget, ResolvedRoute) {
        let target = try HTTPTarget(url: request.url, connectTo: setup.connectTo)
        switch target.route(streamerServer: request.streamerServer, connectTo: setup.connectTo) {
        case .mapped(let address):
            return (target, ResolvedRoute(address: address, candidates: [address]))
        case .byName:
            return (target, ResolvedRoute(address: nil, candidates: []))
        case .checked:
            do throws(AddressPolicy.Refusal) {
                let addresses = try await AddressPolicy.publicAddresses(of: target.host, port: target.port)
                    .compactMap(\.ipAddress)
                return (target, ResolvedRoute(address: addresses.first, candidates: addresses))
            } catch {
                throw .refused(request.url, error.description)
            }
        }
    }

    /// The request as AsyncHTTPClient sends it.
    private static func message(_ request: WebRequest, target: HTTPTarget) -> HTTPClientRequest {
        var message = HTTPClientRequest(url: target.requestURL)
        message.method = request.method == .post ? .POST : .GET
        message.headers.add(name: "Host", value: target.hostHeader)
        message.headers.add(name: "User-Agent", value: userAgent)
        message.headers.add(name: "Accept", value: request.accept)
        for (name, value) in request.headers { message.headers.replaceOrAdd(name: name, value: value) }
        if let body = request.body { message.body = .bytes(ByteBuffer(bytes: body)) }
        return message
    }

    /// Web platforms serve their pages only to browsers: a current desktop browser's name.
    package static let userAgent =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

    /// AsyncHTTPClient's own deadline, a little before ours: when it gives up first it says why
    /// (a certificate it kept refusing while it retried the connection), where ours says "timed out".
    private static func clientDeadline(_ deadline: ContinuousClock.Instant, _ request: WebRequest) -> ContinuousClock.Instant {
        deadline - min(.milliseconds(500), request.limits.timeout / 10)
    }

    private static func nio(_ deadline: ContinuousClock.Instant) -> NIODeadline {
        NIODeadline.now() + .nanoseconds((deadline - ContinuousClock.now).clampedNanoseconds)
    }

    private static func makeSetup(_ environment: [String: String]) -> Result<Setup, WebFailure> {
        let connectTo: ConnectTo
        do throws(ConnectTo.SetupError) {
            connectTo = try ConnectTo.fromEnvironment(environment)
        } catch {
            return .failure(WebFailure(error.description))
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let path = environment[TLSSettings.extraCAFileVariable], !path.isEmpty {
            guard FileManager.default.isReadableFile(atPath: path) else {
                return .failure(WebFailure("\(TLSSettings.extraCAFileVariable)=\(path): no such readable file"))
            }
            tls.additionalTrustRoots = [.file(path)]
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(10), read: .seconds(10)))
        configuration.httpVersion = .http1Only
        return .success(Setup(connectTo: connectTo, clients: PinnedClients(configuration: configuration)))
    }

    static func failure(_ error: any Error, url: String) -> WebFailure {
        switch error {
        case let error as WebFailure:
            return error
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            return .timedOut(url)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return WebFailure("\(WebFailure.shown(url)): TLS: the certificate is not for this host name")
        case is NIOSSLError, is BoringSSLError:
            return WebFailure("\(WebFailure.shown(url)): \(ReconnectLoop.tlsReason("\(error)"))")
        case is CancellationError:
            return .cancelled(url)
        default:
            return WebFailure("\(WebFailure.shown(url)): \(String("\(error)".prefix(120)))")
        }
    }
}

/// A streamed body's own client: shut down when the body ends, when the stream is dropped, or at
/// the deadline, whichever comes first (at the deadline the body fails with "timed out").
private final class StreamedBody: Sendable {
    let client: HTTPClient
    private let url: String
    private let state = Mutex((closed: false, timedOut: false))
    private let timer = Mutex<Task<Void, Never>?>(nil)

    init(client: HTTPClient, deadline: ContinuousClock.Instant, url: String) {
        self.client = client
        self.url = url
        let task = Task { [weak self] in
            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
            self?.expire()
        }
        timer.withLock { $0 = task }
    }

    deinit { close() }

    private func expire() {
        state.withLock { $0.timedOut = true }
        close()
    }

    func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        timer.withLock { $0?.cancel() }
        Task { [client] in try? await client.shutdown() }
    }

    func failure(_ error: any Error) -> WebFailure {
        state.withLock { $0.timedOut } ? .timedOut(url) : HTTPSTransport.failure(error, url: url)
    }
}
