// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A real HTTPS server on 127.0.0.1 for tests (SwiftNIO, TLS with a certificate from `TestCA`):
/// routes by path that answer, redirect, or send their headers and then drip their body a byte
/// at a time, as a hostile picture host does. Clients reach it under the test CA's host names
/// through `COMMENTBAR_CONNECT_TO` (`environment(hosts:)`), TLS verified as in production.
package final class LoopbackHTTPS: Sendable {
    package enum Route: Sendable {
        case body([UInt8], status: Int = 200, headers: [String: String] = [:])
        /// The headers at once (a `Content-Length` of `bytes`), then one byte every `every`.
        case drip(every: Duration, bytes: Int)
        case redirect(to: String, status: Int = 302)
    }

    /// A request as the server saw it.
    package struct Seen: Sendable, Equatable {
        package var method: String
        package var path: String
        package var host: String?

        package init(method: String, path: String, host: String?) {
            self.method = method
            self.path = path
            self.host = host
        }
    }

    package let port: Int
    private let channel: any Channel
    private let record: Record

    private final class Record: Sendable {
        let seen = Mutex<[Seen]>([])
    }

    package init(routes: [String: Route]) async throws {
        let ca = try TestCA.shared()
        let certificates = try NIOSSLCertificate.fromPEMFile(ca.certificate).map { NIOSSLCertificateSource.certificate($0) }
        let tls = TLSConfiguration.makeServerConfiguration(certificateChain: certificates,
                                                           privateKey: .privateKey(try NIOSSLPrivateKey(file: ca.key, format: .pem)))
        let context = try NIOSSLContext(configuration: tls)
        let record = Record()
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: context))
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(RouteHandler(routes: routes, record: { seen in record.seen.withLock { $0.append(seen) } }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
        self.record = record
    }

    /// Every request so far.
    package var seen: [Seen] { record.seen.withLock { $0 } }

    package func close() async {
        try? await channel.close()
    }

    /// `COMMENTBAR_CA_FILE` and `COMMENTBAR_CONNECT_TO` for an `HTTPSTransport` that reaches this
    /// server for each of `hosts` (port 443).
    package func environment(hosts: [String]) throws -> [String: String] {
        ["COMMENTBAR_CA_FILE": try TestCA.shared().authority,
         "COMMENTBAR_CONNECT_TO": hosts.map { "\($0):443:127.0.0.1:\(port)" }.joined(separator: ",")]
    }
}

private final class RouteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let routes: [String: LoopbackHTTPS.Route]
    let record: (LoopbackHTTPS.Seen) -> Void
    private var head: HTTPRequestHead?
    private var drip: RepeatedTask?
    private var dripped = 0

    init(routes: [String: LoopbackHTTPS.Route], record: @escaping (LoopbackHTTPS.Seen) -> Void) {
        self.routes = routes
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
        case .body:
            break
        case .end:
            guard let head else { return }
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            record(LoopbackHTTPS.Seen(method: head.method.rawValue, path: path, host: head.headers.first(name: "Host")))
            respond(routes[path], context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        drip?.cancel()
        context.fireChannelInactive()
    }

    private func respond(_ route: LoopbackHTTPS.Route?, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        switch route {
        case .body(let bytes, let status, let extra)?:
            headers.add(name: "Content-Length", value: String(bytes.count))
            for (name, value) in extra { headers.add(name: name, value: value) }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status),
                                                                 headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .redirect(let location, let status)?:
            headers.add(name: "Location", value: location)
            headers.add(name: "Content-Length", value: "0")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status),
                                                                 headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .drip(let every, let bytes)?:
            headers.add(name: "Content-Length", value: String(bytes))
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
                                  promise: nil)
            let interval = TimeAmount.nanoseconds(every.clampedNanoseconds)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            drip = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
                let (handler, context) = loopBound.value
                guard handler.dripped < bytes else {
                    task.cancel()
                    context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
                    return
                }
                handler.dripped += 1
                context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: [0x20])))), promise: nil)
            }
        case nil:
            headers.add(name: "Content-Length", value: "0")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .notFound, headers: headers))),
                          promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

/// A certificate authority made for this test run with openssl (as Tests/feeds/conftest.py's), and
/// a server certificate it signed for localhost, 127.0.0.1 and test names under `.example`.
package struct TestCA: Sendable {
    /// The CA's certificate (`COMMENTBAR_CA_FILE`).
    package var authority: String
    package var certificate: String
    package var key: String

    /// Names the server certificate covers (besides localhost and 127.0.0.1).
    package static let hostNames = ["cdn.example", "api.example", "emotes.example", "a.example", "b.example",
                                    "c.example", "d.example", "e.example", "redirect.example"]

    private static let made = Mutex<Result<TestCA, TestCAError>?>(nil)

    package struct TestCAError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The run's CA, made on first use.
    package static func shared() throws -> TestCA {
        try made.withLock { made in
            if let made { return try made.get() }
            let result = Result<TestCA, TestCAError> { () throws(TestCAError) -> TestCA in try make() }
            made = result
            return try result.get()
        }
    }

    private static func make() throws(TestCAError) -> TestCA {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commentbar-ca-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try run(["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                                             "-subj", "/CN=CommentBar Swift Test CA",
                                             "-addext", "basicConstraints=critical,CA:TRUE",
                                             "-addext", "keyUsage=critical,keyCertSign,cRLSign"], in: directory)
            try run(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], in: directory)
            let names = (["localhost"] + hostNames).map { "DNS:\($0)" }.joined(separator: ",")
            try Data(("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                      + "subjectAltName=\(names),IP:127.0.0.1\n").utf8).write(to: directory.appendingPathComponent("server.ext"))
            try run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                     "-out", "server.pem", "-days", "2", "-extfile", "server.ext"], in: directory)
        } catch let error as TestCAError {
            throw error
        } catch {
            throw TestCAError(description: "cannot make the test CA: \(error)")
        }
        return TestCA(authority: directory.appendingPathComponent("ca.pem").path,
                      certificate: directory.appendingPathComponent("server.pem").path,
                      key: directory.appendingPathComponent("server.key").path)
    }

    private static func run(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestCAError(description: "openssl \(arguments.first ?? "") failed (\(process.terminationStatus))")
        }
    }
}
