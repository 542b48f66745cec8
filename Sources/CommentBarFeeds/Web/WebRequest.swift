// SPDX-License-Identifier: GPL-2.0-or-later
/// One HTTPS request as a feed makes it: where, how, with what caps, and whether the streamer
/// typed its server (which the address policy then lets be reached wherever it is).
public struct WebRequest: Sendable {
    public enum Method: String, Sendable, Equatable {
        case get = "GET"
        case post = "POST"
    }

    /// An `https://` URL (anything else is refused).
    public var url: String
    public var method: Method
    /// The `Accept` header.
    public var accept: String
    /// Further headers (a later one of the same name replaces an earlier one).
    public var headers: [(name: String, value: String)]
    /// The body of a POST (with its `Content-Type` among `headers`).
    public var body: [UInt8]?
    public var limits: WebLimits
    /// The server the streamer typed (`server` setting), when this request goes to the API it names.
    public var streamerServer: StreamerServer?

    public init(url: String, method: Method = .get, accept: String = "*/*", headers: [(name: String, value: String)] = [],
                body: [UInt8]? = nil, limits: WebLimits, streamerServer: StreamerServer? = nil) {
        self.url = url
        self.method = method
        self.accept = accept
        self.headers = headers
        self.body = body
        self.limits = limits
        self.streamerServer = streamerServer
    }

    /// The last value of the header `name` (any case), if any.
    public func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What one request may cost: bytes of body, time (the whole exchange, body included), redirects.
public struct WebLimits: Sendable, Equatable {
    public var maxBytes: Int
    public var timeout: Duration
    public var maxRedirects: Int

    public init(maxBytes: Int, timeout: Duration, maxRedirects: Int = 3) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.maxRedirects = maxRedirects
    }
}
