// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// HTTPS GETs with caps, for images (and the platforms' web APIs): certificates always
/// verified (plus `COMMENTBAR_CA_FILE`), `COMMENTBAR_CONNECT_TO` honoured with the
/// certificate still checked against the URL's host, the body cut off at a byte cap,
/// one deadline for the whole request, and redirects followed only to `https://`.
/// Nothing here reads a local file: the only scheme is https. Every request and every redirect
/// goes through `AddressPolicy` (public hosts only, connected at the checked address) unless
/// `COMMENTBAR_CONNECT_TO` maps its host to an address.
package enum HTTPFetcher {
    package struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        package var description: String
        /// The HTTP status when the server answered with one other than 200 (429: slow down).
        package var status: Int?
        package init(_ description: String, status: Int? = nil) {
            self.description = description
            self.status = status
        }
    }

    package struct Limits: Sendable {
        package var maxBytes: Int
        package var timeout: Duration
        package var maxRedirects = 3

        package init(maxBytes: Int, timeout: Duration) {
            self.maxBytes = maxBytes
            self.timeout = timeout
        }
    }

    /// The body of `url`, or why not. `url` must be https.
    package static func get(_ url: String, limits: Limits, accept: String = "*/*",
                            headers: [(String, String)] = []) async throws(Failure) -> [UInt8] {
        try await fetch(url, method: .GET, body: nil, limits: limits, accept: accept, headers: headers).body
    }

    /// The body of `url` with the response's `Cache-Control` header (for caches).
    package static func getCacheable(_ url: String, limits: Limits,
                                     accept: String = "*/*") async throws(Failure) -> (body: [UInt8], cacheControl: String?) {
        try await fetch(url, method: .GET, body: nil, limits: limits, accept: accept, headers: [])
    }

    /// POSTs `body` (JSON unless `contentType` says otherwise) and returns the response body.
    package static func post(_ url: String, body: [UInt8], contentType: String = "application/json",
                             limits: Limits, accept: String = "application/json",
                             headers: [(String, String)] = []) async throws(Failure) -> [UInt8] {
        try await fetch(url, method: .POST, body: body, limits: limits, accept: accept,
                        headers: headers + [("Content-Type", contentType)]).body
    }

    /// The response of a GET whose status is 200, with its body not yet read: for streams
    /// (long-lived chunked responses) that the caller reads chunk by chunk with its own caps.
    /// `deadline` bounds the whole response, body included; redirects are not followed.
    package static func open(_ url: String, deadline: NIODeadline, accept: String = "*/*",
                             headers: [(String, String)] = []) async throws(Failure) -> HTTPClientResponse {
        let (client, request) = try await prepare(url, method: .GET, body: nil, accept: accept, headers: headers)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch {
            throw Failure(reason(error, url: url))
        }
        guard response.status.code == 200 else {
            throw Failure("\(shown(url)): HTTP \(response.status.code)", status: Int(response.status.code))
        }
        return response
    }

    private static func fetch(_ url: String, method: HTTPMethod, body: [UInt8]?, limits: Limits, accept: String,
                              headers: [(String, String)]) async throws(Failure) -> (body: [UInt8], cacheControl: String?) {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(limits.timeout.components.seconds) * 1_000_000_000
                                                        + limits.timeout.components.attoseconds / 1_000_000_000)
        var current = url
        var method = method
        var body = body
        for _ in 0...limits.maxRedirects {
            // Each hop is checked again: a public host may redirect to a private one.
            let (client, request) = try await prepare(current, method: method, body: body, accept: accept,
                                                      headers: headers)
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline)
            } catch {
                throw Failure(reason(error, url: url))
            }
            switch response.status.code {
            case 200:
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limits.maxBytes {
                    throw Failure("\(shown(url)): \(length) bytes is more than \(limits.maxBytes >> 10) KiB")
                }
                do {
                    let body = try await response.body.collect(upTo: limits.maxBytes)
                    return (Array(body.readableBytesView), response.headers.first(name: "Cache-Control"))
                } catch is NIOTooManyBytesError {
                    throw Failure("\(shown(url)): more than \(limits.maxBytes >> 10) KiB")
                } catch {
                    throw Failure(reason(error, url: url))
                }
            case 301, 302, 303, 307, 308:
                guard let location = response.headers.first(name: "Location"),
                      let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString,
                      next.lowercased().hasPrefix("https://") else {
                    throw Failure("\(shown(url)): redirected somewhere that is not https://")
                }
                current = next
                // As browsers do: 303 (and 301/302 after a POST) become a GET without a body.
                if response.status.code == 303 || (method == .POST && response.status.code < 307) {
                    method = .GET
                    body = nil
                }
            case 429:
                throw Failure("\(shown(url)): HTTP 429 (too many requests)", status: 429)
            default:
                throw Failure("\(shown(url)): HTTP \(response.status.code)", status: Int(response.status.code))
            }
        }
        throw Failure("\(shown(url)): more than \(limits.maxRedirects) redirects")
    }

    /// The request for `url` and the client that may send it, or why `url` may not be reached.
    private static func prepare(_ url: String, method: HTTPMethod, body: [UInt8]?, accept: String,
                                headers: [(String, String)]) async throws(Failure) -> (HTTPClient, HTTPClientRequest) {
        let (client, connectTo, pinned) = try setup.get()
        let target = try Target(url: url, connectTo: connectTo)
        let request = try makeRequest(url, method: method, body: body, accept: accept, headers: headers,
                                      connectTo: connectTo)
        if connectTo.mapsToAddress(host: target.host, port: target.port)
            || StreamerTypedHosts.allows(host: target.host, port: target.port) { return (client, request) }
        do throws(AddressPolicy.Refusal) {
            let addresses = try await AddressPolicy.publicAddresses(of: target.host, port: target.port)
            return (pinned.client(host: target.host, addresses: addresses), request)
        } catch {
            throw Failure("\(shown(url)): refused: \(error.description)")
        }
    }

    private static func makeRequest(_ url: String, method: HTTPMethod, body: [UInt8]?, accept: String,
                                    headers: [(String, String)], connectTo: ConnectTo) throws(Failure) -> HTTPClientRequest {
        let target = try Target(url: url, connectTo: connectTo)
        var request = HTTPClientRequest(url: target.requestURL)
        request.method = method
        request.headers.add(name: "Host", value: target.hostHeader)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: accept)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    /// Web platforms serve their pages only to browsers: a current desktop browser's name.
    package static let userAgent =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

    /// Where a URL's request really goes.
    struct Target {
        var requestURL: String
        var hostHeader: String
        var host: String
        var port: Int

        init(url: String, connectTo: ConnectTo) throws(Failure) {
            guard url.utf8.count <= 4096, let components = URLComponents(string: url),
                  components.scheme?.lowercased() == "https", let host = components.host, !host.isEmpty,
                  components.user == nil, components.password == nil else {
                throw Failure("not an https:// URL: \(HTTPFetcher.shown(url))")
            }
            let port = components.port ?? 443
            self.host = host
            self.port = port
            hostHeader = port == 443 ? host : "\(host):\(port)"
            // The address comes from the client's DNS override; the port is rewritten here.
            var rewritten = components
            rewritten.port = connectTo.target(host: host, port: port).port
            requestURL = rewritten.string ?? url
        }
    }

    /// One client for the process (never shut down: it lives as long as the renderer), made
    /// from the environment on first use; a bad variable fails every fetch with its reason.
    private static let setup: Result<(HTTPClient, ConnectTo, PinnedClients), Failure> = {
        let connectTo: ConnectTo
        do throws(ConnectTo.SetupError) {
            connectTo = try ConnectTo.fromEnvironment()
        } catch {
            return .failure(Failure(error.description))
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let path = ProcessInfo.processInfo.environment[TLSSettings.extraCAFileVariable], !path.isEmpty {
            guard FileManager.default.isReadableFile(atPath: path) else {
                return .failure(Failure("\(TLSSettings.extraCAFileVariable)=\(path): no such readable file"))
            }
            tls.additionalTrustRoots = [.file(path)]
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(10), read: .seconds(10)))
        configuration.httpVersion = .http1Only
        let pinned = PinnedClients(configuration: configuration)
        configuration.dnsOverride = connectTo.dnsOverride
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        return .success((client, connectTo, pinned))
    }()

    /// A URL as it may appear in a log line or on the bar: short, no query.
    package static func shown(_ url: String) -> String {
        let base = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return base.count > 120 ? String(base.prefix(117)) + "…" : base
    }

    private static func reason(_ error: any Error, url: String) -> String {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            return "\(shown(url)): timed out"
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return "\(shown(url)): TLS: the certificate is not for this host name"
        case is NIOSSLError, is BoringSSLError:
            return "\(shown(url)): \(ReconnectLoop.tlsReason("\(error)"))"
        default:
            return "\(shown(url)): \(String("\(error)".prefix(120)))"
        }
    }
}

extension ConnectTo {
    /// Whether a rule sends `host`:`port` to a named address: the operator's (or a test's)
    /// explicit choice, which the address policy does not second-guess.
    func mapsToAddress(host: String, port: Int) -> Bool {
        let key = AddressPolicy.hostWithoutBrackets(host).lowercased()
        return rules.first { ($0.host == nil || $0.host == key) && ($0.port == nil || $0.port == port) }?.toHost != nil
    }

    /// AsyncHTTPClient's DNS override: host → address, for rules that name both.
    var dnsOverride: [String: String] {
        var map: [String: String] = [:]
        for rule in rules.reversed() {
            if let host = rule.host, let address = rule.toHost { map[host] = address }
        }
        return map
    }
}
