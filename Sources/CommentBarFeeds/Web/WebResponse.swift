// SPDX-License-Identifier: GPL-2.0-or-later
/// A 200 answer, read whole.
public struct WebResponse: Sendable, Equatable {
    public var body: [UInt8]
    /// The `Cache-Control` header, for caches.
    public var cacheControl: String?

    public init(body: [UInt8], cacheControl: String? = nil) {
        self.body = body
        self.cacheControl = cacheControl
    }
}

/// Why a request gave no answer, as the bar and the log say it (the URL shown short, no query).
public struct WebFailure: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    /// The HTTP status when the server answered with one other than 200 (429: slow down).
    public var status: Int?

    public init(_ description: String, status: Int? = nil) {
        self.description = description
        self.status = status
    }
}
