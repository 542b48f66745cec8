// SPDX-License-Identifier: GPL-2.0-or-later
/// What a GET on the OneComme server asks for, from its path alone. The server has these routes
/// and no other: nothing of the control server's (`/api/events`, `/api/pin`, …) answers here.
enum OneCommeRoute: Equatable, Sendable {
    /// The page listing the templates (`/`, `/templates/`).
    case index
    /// OneComme's read-only API: `info`, `comments`, `comments/pinned`, `services`, `config`.
    case api(String)
    /// Another of OneComme's routes (`plugins/…`, `orders`, `setlists/current`, …): answered at
    /// once with a JSON error, so a template that tries it falls back instead of waiting.
    case unservedAPI(String)
    /// `__origin/…` of either set: OneSDK, the shared CSS, Vue.
    case origin([String])
    /// A file of a preset template (ours) or of the user's (`custom`).
    case preset(name: String, path: [String])
    case custom(name: String, path: [String])
    /// A template's folder without its slash: its relative links need the slash.
    case redirect(String)
    /// The WebSocket (`/sub`), asked for without the upgrade.
    case subscription
    case notFound
    /// A path that could lead out of its folder, or is not one we would ever serve.
    case refused

    static let apis: Set<String> = ["info", "comments", "comments/pinned", "services", "config"]

    init(path uri: String) {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        switch path {
        case "/", "/templates", "/templates/":
            self = .index
            return
        case "/sub":
            self = .subscription
            return
        default:
            break
        }
        if path.hasPrefix("/api/") {
            let name = String(path.dropFirst("/api/".count))
            self = Self.apis.contains(name) ? .api(name) : .unservedAPI(name)
            return
        }
        guard path.hasPrefix("/templates/") else {
            self = .notFound
            return
        }
        guard let segments = TemplatePath.segments(path) else {
            self = .refused
            return
        }
        guard segments.count >= 3, ["preset", "custom"].contains(segments[1]) else {
            self = .notFound
            return
        }
        let name = segments[2]
        let rest = Array(segments.dropFirst(3))
        if rest.isEmpty {
            self = name == "index.html" ? .notFound : .redirect("/templates/\(segments[1])/\(Self.percentEncoded(name))/")
        } else if name == "__origin" {
            self = .origin(rest)
        } else if segments[1] == "preset" {
            self = .preset(name: name, path: rest)
        } else {
            self = .custom(name: name, path: rest)
        }
    }

    /// A name as one path segment of a URL.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// The Content-Type of a file by its extension (a template's own files may be anything a page uses).
    static func contentType(_ name: String) -> String {
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
