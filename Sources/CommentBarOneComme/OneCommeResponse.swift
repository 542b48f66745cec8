// SPDX-License-Identifier: GPL-2.0-or-later
import NIOHTTP1

/// One answer of the OneComme server.
struct OneCommeResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// The connection closes after it (a request refused before its end is not read on).
    var closesConnection = false

    static func bytes(_ body: [UInt8], type: String) -> OneCommeResponse {
        OneCommeResponse(status: .ok, headers: [("Content-Type", type)], body: body)
    }

    static func json(_ body: [UInt8]) -> OneCommeResponse { bytes(body, type: "application/json; charset=utf-8") }

    static func text(_ status: HTTPResponseStatus, _ message: String, closes: Bool = false) -> OneCommeResponse {
        OneCommeResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
                         body: Array((message + "\n").utf8), closesConnection: closes)
    }

    /// An API error as JSON, for a template's `fetch().then(r => r.json())` to read.
    static func jsonError(_ status: HTTPResponseStatus, _ message: String, closes: Bool = false) -> OneCommeResponse {
        struct Failure: Encodable {
            var error: String
            var status: Int
        }
        var response = json(OneCommeMessage.encode(Failure(error: message, status: Int(status.code))))
        response.status = status
        response.closesConnection = closes
        return response
    }

    /// An API answer a page of this server's other name may read (`LoopbackAccess.corsOrigin`);
    /// `Vary` keeps a cache from handing one origin's answer to another.
    func crossOrigin(_ origin: String?) -> OneCommeResponse {
        var copy = self
        copy.headers.append(("Vary", "Origin"))
        if let origin { copy.headers.append(("Access-Control-Allow-Origin", origin)) }
        return copy
    }

    func adding(_ header: (name: String, value: String)) -> OneCommeResponse {
        var copy = self
        copy.headers.append(header)
        return copy
    }

    /// On every answer: never sniffed as another type, no address of the page sent on. CORS only
    /// for this server's own other names (`crossOrigin`): another site's page may not read the chat.
    static let commonHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-cache"),
    ]
}
