// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// One HTTP request to the control server, whole (head and a bounded body).
struct ControlRequest: Sendable {
    var method: HTTPMethod
    var path: String
    var query: [String: String]
    var headers: HTTPHeaders
    var body: ByteBuffer
    /// The connection it came on (nil outside one): a request held for news lets go of its place
    /// when that connection closes.
    var connection: (any Channel)?

    init(head: HTTPRequestHead, body: ByteBuffer, connection: (any Channel)? = nil) {
        self.connection = connection
        method = head.method
        headers = head.headers
        self.body = body
        // The target is a path and a query (origin form); anything else has no path we serve.
        let components = head.uri.hasPrefix("/") ? URLComponents(string: head.uri) : nil
        path = components?.path ?? ""
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] where query[item.name] == nil {
            query[item.name] = item.value ?? ""
        }
        self.query = query
    }

    /// The first value of a header (names are matched ignoring case).
    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// One HTTP response of the control server.
struct ControlResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// The connection closes after it (a refused body is not read on).
    var closesConnection = false
    /// The request proved it may use the server (its connection is then no longer one of the
    /// few kept for those that have not: `ConnectionSlots`).
    var authenticated = false

    init(status: HTTPResponseStatus, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
         closesConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closesConnection = closesConnection
    }

    /// A JSON answer, through Codable.
    static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok) -> ControlResponse {
        let body = (try? Array(JSONEncoder().encode(value))) ?? []
        return ControlResponse(status: body.isEmpty ? .internalServerError : status,
                               headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
    }

    /// `{"error": message}`.
    static func error(_ status: HTTPResponseStatus, _ message: String) -> ControlResponse {
        json(ErrorBody(error: message), status: status)
    }

    struct ErrorBody: Codable {
        var error: String
    }

    static func text(_ status: HTTPResponseStatus, _ text: String, type: String = "text/plain; charset=utf-8") -> ControlResponse {
        ControlResponse(status: status, headers: [("Content-Type", type)], body: Array(text.utf8))
    }
}
