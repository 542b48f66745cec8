// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import CommentBarControl
import CommentBarCore
import FoundationEssentials
import Glibc
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The in-process double of the renderer's side: records every call, answers as told.
final class RecordingBackend: ControlBackend {
    struct Calls {
        var pinned: [ChatLine] = []
        var unpinned: [String?] = []
        var viewers: [ViewerChoice] = []
        var searches: [String] = []
        var skips = 0
        var paused = false
    }
    let calls = Mutex(Calls())
    let viewerOutcome: ViewerChoiceOutcome
    let pinUntil: Double?
    /// Searches wait here until it opens (nil: they answer at once).
    let searchGate: Gate?
    /// Viewer changes wait here until it opens (nil: they answer at once), as they wait on a locked log.
    let viewerGate: Gate?

    init(viewerOutcome: ViewerChoiceOutcome = .saved, pinUntil: Double? = nil, searchGate: Gate? = nil, viewerGate: Gate? = nil) {
        self.viewerOutcome = viewerOutcome
        self.pinUntil = pinUntil
        self.searchGate = searchGate
        self.viewerGate = viewerGate
    }

    func pin(_ line: ChatLine) -> Double? {
        calls.withLock { $0.pinned.append(line) }
        return pinUntil
    }

    func unpin(id: String?) -> Bool {
        calls.withLock { calls in
            calls.unpinned.append(id)
            return !calls.pinned.isEmpty
        }
    }

    func setViewer(_ choice: ViewerChoice) async -> ViewerChoiceOutcome {
        calls.withLock { $0.viewers.append(choice) }
        await viewerGate?.wait()
        return viewerOutcome
    }

    func search(_ text: String, limit: Int) async -> [ControlEvent.Comment]? {
        calls.withLock { $0.searches.append(text) }
        await searchGate?.wait()
        return nil
    }

    func skipSpeech() { calls.withLock { $0.skips += 1 } }

    func pauseSpeech(_ paused: Bool?) -> Bool {
        calls.withLock { calls in
            calls.paused = paused ?? !calls.paused
            return calls.paused
        }
    }
}

/// A gate tasks wait at until it opens (a search that takes as long as the test wants).
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

enum TestSupport {
    static let log = Logger(label: "control-test")
    static let token = String(repeating: "ab", count: 32)

    /// A server on a free port of 127.0.0.1 and ::1 (port 0: the system's choice, the server says which).
    static func startServer(backend: any ControlBackend = RecordingBackend(), token: TokenWatch = TokenWatch(fixed: token),
                            options: ControlServer.Options = ControlServer.Options(), log: Logger = log)
        async throws -> ControlServer {
        try await ControlServer.start(port: 0, token: token, backend: backend, log: log, options: options)
    }

    /// One HTTP request with AsyncHTTPClient; the status, headers and body.
    static func request(_ port: Int, _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
                        body: [UInt8]? = nil, host: String? = nil, bearer: Bool = true) async throws
        -> (status: HTTPResponseStatus, headers: HTTPHeaders, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let host { request.headers.add(name: "Host", value: host) }
        if bearer { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                request.headers.add(name: "Content-Type", value: "application/json")
            }
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            let bytes = try await response.body.collect(upTo: 4 << 20)
            try await client.shutdown()
            return (response.status, response.headers, String(buffer: bytes))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    static func comment(_ id: String, user: String = "alice", text: String = "hello") -> ChatLine {
        ChatLine(id: id, user: user.capitalized, login: user, text: text)
    }

    static func publishComment(_ server: ControlServer, _ line: ChatLine, platform: String = "twitch",
                               channel: String = "streamer") {
        let comment = ControlEvent.Comment(id: line.id, platform: platform, channel: channel, platformColour: "#9146ff",
                                           user: line.login ?? line.user, name: line.user, text: line.text, time: 1)
        server.publish(.comment(comment), line: line)
    }

    /// A port as /proc/net/tcp writes it: four upper-case hex digits.
    static func hex4(_ port: Int) -> String {
        let digits = String(port, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The text of a C string in a buffer (up to its first NUL).
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Resident memory of this process, in KiB.
    static func residentKiB() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = TestSupport.text(line)
            if text.hasPrefix("VmRSS:") { return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
        }
        return 0
    }

    /// Waits until `condition` holds (checked every 20 ms), at most `seconds`.
    static func eventually(_ seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }
}

/// How many events a reader has taken so far, read by the test that sends them.
final class ReceivedCount: Sendable {
    let value = Atomic<Int>(0)
}

/// A WebSocket client made with NIO's client upgrader: the event API as a tool sees it.
struct EventClient {
    let channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    enum Outcome {
        case opened(EventClient)
        case refused
    }

    /// Connects to `/api/events`; `origin` and `bearer` as a browser or a tool would send them.
    static func connect(port: Int, host: String = "127.0.0.1", path: String = "/api/events", origin: String? = nil,
                        bearer: Bool = true, token: String = TestSupport.token, headers more: [(String, String)] = [],
                        receiveBuffer: Int? = nil) async throws -> Outcome {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer)) }
        let upgraded: EventLoopFuture<EventClient?> = try await bootstrap.connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let upgrader = NIOTypedWebSocketClientUpgrader<EventClient?>(
                    maxFrameSize: 1 << 20,
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            EventClient(channel: try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                        }
                    })
                var headers = HTTPHeaders()
                headers.add(name: "Host", value: "\(host.contains(":") ? "[\(host)]" : host):\(port)")
                if let origin { headers.add(name: "Origin", value: origin) }
                if bearer { headers.add(name: "Authorization", value: "Bearer \(token)") }
                for (name, value) in more { headers.add(name: name, value: value) }
                headers.add(name: "Content-Length", value: "0")
                let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                let configuration = NIOTypedHTTPClientUpgradeConfiguration<EventClient?>(
                    upgradeRequestHead: head, upgraders: [upgrader],
                    notUpgradingCompletionHandler: { channel in
                        // Closed once the upgrade handler is done with the refusal.
                        channel.eventLoop.execute { channel.close(promise: nil) }
                        return channel.eventLoop.makeSucceededFuture(nil)
                    })
                return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                    configuration: NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration))
            }
        }
        guard let client = try await upgraded.get() else { return .refused }
        return .opened(client)
    }

    /// The text messages, as events, until `count` came or the connection closed; and the close
    /// frame's code, if one came.
    func events(count: Int) async throws -> (events: [ControlEvent], closeCode: WebSocketErrorCode?) {
        var events: [ControlEvent] = []
        let closeCode = try await read(count: count) { events.append($0) }
        return (events, closeCode)
    }

    /// Reads `count` events (or until the connection closes), handing each to `take` and keeping
    /// none; `received`, when given, counts them as they come, for a sender that must not outrun
    /// this reader. The close frame's code, if one came.
    func read(count: Int, received: ReceivedCount? = nil,
              _ take: (ControlEvent) -> Void) async throws -> WebSocketErrorCode? {
        var taken = 0
        var closeCode: WebSocketErrorCode?
        try await channel.executeThenClose { inbound, _ in
            for try await frame in inbound {
                switch frame.opcode {
                case .text:
                    take(try JSONDecoder().decode(ControlEvent.self, from: Data(frame.unmaskedData.readableBytesView)))
                    taken += 1
                    received?.value.store(taken, ordering: .releasing)
                    if taken >= count { return }
                case .connectionClose:
                    var data = frame.unmaskedData
                    closeCode = data.readWebSocketErrorCode()
                    return
                default:
                    break
                }
            }
        }
        return closeCode
    }
}
