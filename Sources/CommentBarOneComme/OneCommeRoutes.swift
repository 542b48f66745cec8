// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1
import NIOPosix

/// The OneComme server's answers (`OneCommeRoute`), read-only: the API from the hub (on the event
/// loop), the embedded files from memory, the user's templates from disk on the server's thread
/// pool. Every request names the server by one of its loopback names (`LoopbackAccess`).
final class OneCommeRoutes: Sendable {
    let access: LoopbackAccess
    private let hub: NIOLoopBound<OneCommeHub>
    private let files: TemplateFiles?
    private let threads: NIOThreadPool
    private let vue: [UInt8]?

    init(access: LoopbackAccess, hub: NIOLoopBound<OneCommeHub>, files: TemplateFiles?, threads: NIOThreadPool, vue: [UInt8]?) {
        self.access = access
        self.hub = hub
        self.files = files
        self.threads = threads
        self.vue = vue
    }

    /// Whether a request may become a `/sub` WebSocket: the path, the Host and the page's Origin.
    func mayUpgrade(_ head: HTTPRequestHead) -> Bool {
        guard OneCommeRoute(path: head.uri) == .subscription, let host = access.host(head.headers.first(name: "Host")) else {
            return false
        }
        return access.originAllowed(head.headers.first(name: "Origin"), host: host)
    }

    func respond(to request: HTTPRequestHead, on loop: any EventLoop) -> EventLoopFuture<OneCommeResponse> {
        guard let host = access.host(request.headers.first(name: "Host")) else {
            // DNS rebinding: another site's name pointed at this machine.
            return loop.makeSucceededFuture(.text(.forbidden, "This server answers only to 127.0.0.1:\(access.port), "
                                                  + "[::1]:\(access.port) and localhost:\(access.port)."))
        }
        let ownPage = ("Content-Security-Policy", access.contentSecurityPolicy)
        switch OneCommeRoute(path: request.uri) {
        case .index:
            return index(host: host, on: loop).map { $0.adding(ownPage) }
        case .api(let name):
            return loop.makeSucceededFuture(api(name).crossOrigin(access.corsOrigin(request.headers.first(name: "Origin"))))
        case .unservedAPI(let name):
            return loop.makeSucceededFuture(OneCommeResponse.jsonError(.notFound, "CommentBar does not serve /api/\(name)")
                .crossOrigin(access.corsOrigin(request.headers.first(name: "Origin"))))
        case .origin(let path):
            return loop.makeSucceededFuture(origin(path).adding(ownPage))
        case .preset(let name, let path):
            let key = "preset/\(name)/" + path.joined(separator: "/")
            return loop.makeSucceededFuture(OneCommeAssets.file(key).map {
                OneCommeResponse.bytes($0, type: OneCommeRoute.contentType(key)).adding(ownPage)
            } ?? .text(.notFound, "No such file in the preset templates."))
        case .custom(let name, let path):
            return custom([name] + path, on: loop)
        case .redirect(let location):
            return loop.makeSucceededFuture(OneCommeResponse(status: .movedPermanently, headers: [("Location", location)]))
        case .subscription:
            return loop.makeSucceededFuture(.text(.badRequest, "/sub is a WebSocket, opened from this server's own pages."))
        case .notFound:
            return loop.makeSucceededFuture(.text(.notFound, "Not found. This server is read-only: templates at /templates/."))
        case .refused:
            return loop.makeSucceededFuture(.text(.badRequest, "Refused: a path may not leave its template's folder."))
        }
    }

    /// OneComme's read-only API, from the hub.
    private func api(_ name: String) -> OneCommeResponse {
        let hub = self.hub.value
        switch name {
        case "comments": return .json(OneCommeMessage.encode(hub.comments))
        case "comments/pinned": return .json(OneCommeMessage.encode(hub.pinned))
        case "services": return .json(OneCommeMessage.encode(hub.services))
        case "info":
            // OneComme/OneSDK's `AppInfo` (src/types/App.ts: platform, version, port, licensed,
            // templatePath, templateUrl). `licensed` is never claimed: the SDK's checkLicensed()
            // reads it, and only OneComme can say so.
            struct Info: Encodable {
                var app = "CommentBar"
                var platform = "linux"
                var port: Int
                var licensed = false
                var templatePath: String
                var templateUrl: String
            }
            return .json(OneCommeMessage.encode(Info(port: access.port, templatePath: files?.root ?? "",
                                                     templateUrl: "http://127.0.0.1:\(access.port)/templates/")))
        default:
            return .json(Array("{}".utf8))
        }
    }

    /// `__origin/`: OneSDK and the CSS from the binary, Vue from its file.
    private func origin(_ path: [String]) -> OneCommeResponse {
        let key = path.joined(separator: "/")
        if key == "js/vue.min.js" {
            guard let vue else {
                return .text(.notFound, "vue.min.js is not installed: run `make deps` (a build) or reinstall the package "
                             + "(docs/doors.md). Templates that use Vue need it.")
            }
            return .bytes(vue, type: OneCommeRoute.contentType(key))
        }
        return OneCommeAssets.file("origin/" + key).map { .bytes($0, type: OneCommeRoute.contentType(key)) }
            ?? .text(.notFound, "No such file in __origin.")
    }

    private func custom(_ segments: [String], on loop: any EventLoop) -> EventLoopFuture<OneCommeResponse> {
        guard let files else {
            return loop.makeSucceededFuture(.text(.notFound, "No templates folder (neither XDG_DATA_HOME nor HOME is set)."))
        }
        return threads.runIfActive(eventLoop: loop) { () -> OneCommeResponse in
            switch files.read(segments) {
            case .file(let bytes): return .bytes(bytes, type: OneCommeRoute.contentType(segments.last ?? ""))
            case .notFound: return .text(.notFound, "No such file in your templates (\(files.root)).")
            case .refused(let why): return .text(.forbidden, "Refused: \(why).")
            }
        }.recover { _ in .text(.serviceUnavailable, "The server is stopping.") }
    }

    /// The index page: the presets, and the user's templates (read on the thread pool).
    private func index(host: String, on loop: any EventLoop) -> EventLoopFuture<OneCommeResponse> {
        let files = self.files
        return threads.runIfActive(eventLoop: loop) { () -> OneCommeResponse in
            guard let page = OneCommeAssets.file("index.html") else { return .text(.notFound, "No index page.") }
            func links(_ set: String, _ names: [String]) -> String {
                names.isEmpty ? "<li>(none)</li>" : names.map { name in
                    let escaped = OneCommeHTML.escaped(name.unicodeScalars)
                    return "<li><a href=\"/templates/\(set)/\(OneCommeRoute.percentEncoded(name))/\">\(escaped)</a></li>"
                }.joined()
            }
            let text = String(decoding: page, as: UTF8.self)
                .replacing("{{FOLDER}}", with: OneCommeHTML.escaped((files?.root ?? "(none)").unicodeScalars))
                .replacing("{{PRESETS}}", with: links("preset", OneCommeAssets.presets))
                .replacing("{{CUSTOM}}", with: links("custom", files?.names() ?? []))
            return .bytes(Array(text.utf8), type: "text/html; charset=utf-8")
        }.recover { _ in .text(.serviceUnavailable, "The server is stopping.") }
    }
}
