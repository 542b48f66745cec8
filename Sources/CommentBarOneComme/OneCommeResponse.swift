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

    static func redirect(_ location: String) -> OneCommeResponse {
        OneCommeResponse(status: .movedPermanently, headers: [("Location", location)])
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

    /// The Content-Type of a file by its extension (a template's own files may be anything a page uses).
    static func contentType(ofFile name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "ico": return "image/x-icon"
        case "woff": return "font/woff"
        case "woff2": return "font/woff2"
        case "ttf": return "font/ttf"
        case "otf": return "font/otf"
        case "mp3": return "audio/mpeg"
        case "wav": return "audio/wav"
        case "ogg", "oga": return "audio/ogg"
        case "mp4": return "video/mp4"
        case "webm": return "video/webm"
        default: return "application/octet-stream"
        }
    }
}
