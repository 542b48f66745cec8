// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOHTTP1
import NIOPosix

/// The OneComme server's answers, read-only, by its route table (`OneCommeRoutes.table`): the API
/// from the hub (on the event loop), the embedded files from memory, the user's templates from
/// disk on the server's thread pool. Every request names the server by one of its loopback names
/// (`LoopbackAccess`).
final class OneCommeRoutes: Sendable {
    let access: LoopbackAccess
    let hub: NIOLoopBound<OneCommeHub>
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
        guard Self.path(of: head.uri) == "/sub", let host = access.host(head.headers.first(name: "Host")) else {
            return false
        }
        return access.originAllowed(head.headers.first(name: "Origin"), host: host)
    }

    func respond(to request: HTTPRequestHead, on loop: any EventLoop) -> EventLoopFuture<OneCommeResponse> {
        guard let host = access.host(request.headers.first(name: "Host")) else {
            // DNS rebinding: another site's name pointed at this machine.
            return loop.makeSucceededFuture(.text(.forbidden, "This server answers only to "
                                                  + access.names.hosts.joined(separator: ", ") + "."))
        }
        guard let (route, rest) = Self.route(for: Self.path(of: request.uri)) else {
            return loop.makeSucceededFuture(.text(.notFound, "Not found. This server is read-only: templates at /templates/."))
        }
        let answer = route.answer(self, OneCommeCall(request: request, host: host, rest: rest, loop: loop))
        switch route.kind {
        case .api:
            let origin = access.corsOrigin(request.headers.first(name: "Origin"))
            return answer.map { $0.crossOrigin(origin) }
        case .ownPage:
            let policy = ("Content-Security-Policy", access.contentSecurityPolicy)
            return answer.map { $0.adding(policy) }
        case .plain:
            return answer
        }
    }

    /// `/api/info`: OneComme/OneSDK's `AppInfo` (src/types/App.ts: platform, version, port,
    /// licensed, templatePath, templateUrl). `licensed` is never claimed: the SDK's
    /// checkLicensed() reads it, and only OneComme can say so.
    func info() -> OneCommeResponse {
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
    }

    /// `__origin/`: OneSDK and the CSS from the binary, Vue from its file.
    func origin(_ rest: Substring) -> OneCommeResponse {
        guard let path = TemplatePath.segments("/" + rest) else { return Self.refusedPath }
        let key = path.joined(separator: "/")
        if key == "js/vue.min.js" {
            guard let vue else {
                return .text(.notFound, "vue.min.js is not installed: run `make deps` (a build) or reinstall the package "
                             + "(docs/doors.md). Templates that use Vue need it.")
            }
            return .bytes(vue, type: OneCommeResponse.contentType(ofFile: key))
        }
        return OneCommeAssets.file("origin/" + key).map { .bytes($0, type: OneCommeResponse.contentType(ofFile: key)) }
            ?? .text(.notFound, "No such file in __origin.")
    }

    /// A file of the bar's own templates.
    static func preset(_ rest: Substring) -> OneCommeResponse {
        switch TemplateAddress(set: "preset", rest: rest) {
        case .file(let name, let path):
            let key = "preset/\(name)/" + path.joined(separator: "/")
            return OneCommeAssets.file(key).map { .bytes($0, type: OneCommeResponse.contentType(ofFile: key)) }
                ?? .text(.notFound, "No such file in the preset templates.")
        case .redirect(let location): return .redirect(location)
        case .notFound: return .text(.notFound, "No such file in the preset templates.")
        case .refused: return refusedPath
        }
    }

    static let refusedPath = OneCommeResponse.text(.badRequest, "Refused: a path may not leave its template's folder.")

    /// A file of the user's templates, read on the thread pool.
    func custom(_ rest: Substring, on loop: any EventLoop) -> EventLoopFuture<OneCommeResponse> {
        let segments: [String]
        switch TemplateAddress(set: "custom", rest: rest) {
        case .file(let name, let path): segments = [name] + path
        case .redirect(let location): return loop.makeSucceededFuture(.redirect(location))
        case .notFound: return loop.makeSucceededFuture(.text(.notFound, "No such template."))
        case .refused: return loop.makeSucceededFuture(Self.refusedPath)
        }
        guard let files else {
            return loop.makeSucceededFuture(.text(.notFound, "No templates folder (neither XDG_DATA_HOME nor HOME is set)."))
        }
        return threads.runIfActive(eventLoop: loop) { () -> OneCommeResponse in
            switch files.read(segments) {
            case .file(let bytes): return .bytes(bytes, type: OneCommeResponse.contentType(ofFile: segments.last ?? ""))
            case .notFound: return .text(.notFound, "No such file in your templates (\(files.root)).")
            case .refused(let why): return .text(.forbidden, "Refused: \(why).")
            }
        }.recover { _ in .text(.serviceUnavailable, "The server is stopping.") }
    }

    /// The index page: the presets, and the user's templates (read on the thread pool).
    func index(host: String, on loop: any EventLoop) -> EventLoopFuture<OneCommeResponse> {
        let files = self.files
        return threads.runIfActive(eventLoop: loop) { () -> OneCommeResponse in
            guard let page = OneCommeAssets.file("index.html") else { return .text(.notFound, "No index page.") }
            func links(_ set: String, _ names: [String]) -> String {
                names.isEmpty ? "<li>(none)</li>" : names.map { name in
                    let escaped = OneCommeHTML.escaped(name.unicodeScalars)
                    return "<li><a href=\"/templates/\(set)/\(TemplateAddress.percentEncoded(name))/\">\(escaped)</a></li>"
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
