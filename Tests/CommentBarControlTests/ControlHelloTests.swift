// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarTestSupport
import FoundationEssentials
import Glibc
import NIOHTTP1
import Testing

/// The hello (`ControlHello`): the renderer proves it holds the token before a client sends it.
@Suite struct ControlHelloTests {
    static let nonce = String(repeating: "ab", count: 32)

    /// The proof is HMAC-SHA256 as any other implementation computes it: the value below is
    /// Python's `hmac.new(token, b"commentbar-control-hello|11190|" + nonce, hashlib.sha256)`,
    /// and the dock's Qt code and the test fakes compute the same.
    @Test func theProofIsHMACSHA256OfThePortAndTheNonce() {
        let token = String(repeating: "0123456789abcdef", count: 4)
        #expect(ControlHello.proof(token: token, port: 11190, nonce: Self.nonce)
                == "906404838587cb8505722c89c9364b139e5aff1b76d6d363dce3c01d531eaf98")
        #expect(ControlHello.message(port: 11190, nonce: Self.nonce.uppercased())
                == "commentbar-control-hello|11190|" + Self.nonce, "a nonce is signed as lower-case hex")
    }

    @Test func aProofHoldsOnlyForItsTokenPortAndNonce() {
        let token = TestSupport.token
        let proof = ControlHello.proof(token: token, port: 11190, nonce: Self.nonce)
        #expect(ControlHello.holds(proof, token: token, port: 11190, nonce: Self.nonce))
        #expect(ControlHello.holds(proof.uppercased(), token: token, port: 11190, nonce: Self.nonce))
        // A renderer on another port signs its own port: a squatter relaying to it gets no proof.
        #expect(!ControlHello.holds(proof, token: token, port: 11191, nonce: Self.nonce))
        #expect(!ControlHello.holds(proof, token: token, port: 11190, nonce: String(repeating: "cd", count: 32)))
        #expect(!ControlHello.holds(proof, token: String(repeating: "cd", count: 32), port: 11190, nonce: Self.nonce))
        #expect(!ControlHello.holds("", token: token, port: 11190, nonce: Self.nonce))
        #expect(!ControlHello.holds(proof.dropLast(), token: token, port: 11190, nonce: Self.nonce))
        #expect(ControlHello.makeNonce() != ControlHello.makeNonce())
        #expect(ControlHello.isNonce(ControlHello.makeNonce()))
    }

    /// The route answers anyone on loopback (Host and Origin still checked) without a credential,
    /// and a connection that asked it has still proven nothing.
    @Test func theRouteAnswersWithoutACredentialAndProvesNothing() async throws {
        let harness = try await RouteHarness()
        let answer = await harness.call("/api/hello?nonce=\(Self.nonce)", bearer: false)
        #expect(answer.status == .ok)
        #expect(!answer.authenticated)
        let body = try JSONDecoder().decode(ControlHello.Answer.self, from: Data(answer.body.utf8))
        #expect(ControlHello.holds(body.proof, token: TestSupport.token, port: RouteHarness.port, nonce: Self.nonce))
        for bad in ["/api/hello", "/api/hello?nonce=", "/api/hello?nonce=\(Self.nonce)00", "/api/hello?nonce=\(String(repeating: "zz", count: 32))"] {
            #expect(await harness.call(bad, bearer: false).status == .badRequest, "\(bad)")
        }
        #expect(await harness.call("/api/hello?nonce=\(Self.nonce)", host: "evil.example:11190", bearer: false).status
                == .forbidden)
        #expect(await harness.call("/api/hello?nonce=\(Self.nonce)", headers: [("Origin", "http://evil.example")],
                                   bearer: false).status == .forbidden)
        // Only the hello is open: everything else still needs the token.
        #expect(await harness.call("/api/state", bearer: false).status == .unauthorized)
    }

    /// `control-url`'s client: a real server gives its link; a server holding another token (as a
    /// squatter holds none) is refused before the token is sent.
    @Test func theCLIAsksForALinkOnlyOfTheTokensRenderer() async throws {
        let server = try await TestSupport.startServer()
        let link = try await ControlPageLink.request(port: server.port, token: TestSupport.token)
        #expect(link.hasPrefix("http://127.0.0.1:\(server.port)/p/") && link.contains("/?code="))
        let stranger = String(repeating: "cd", count: 32)
        do {
            _ = try await ControlPageLink.request(port: server.port, token: stranger)
            Issue.record("a server that cannot prove it holds the token was asked for a link")
        } catch {
            // Refused at the hello, before the token went out (a 401 would say so only afterwards).
            #expect(error.description.contains("the token was not sent"), "\(error.description)")
        }
        await server.stop()
    }
}

/// Spent codes, link files and the port's status file.
@Suite(.serialized) struct ControlLinkFileTests {
    let scratch = TemporaryFolder(prefix: "control-link")
    var folder: String { scratch.file("comment-bar") }

    @Test func aSpentCodeIsToldApartFromAWrongOne() async throws {
        let harness = try await RouteHarness()
        let code = harness.sessions.issueCode()
        #expect(await harness.call(harness.sessions.path + "/?code=" + code, bearer: false).status == .seeOther)
        let again = await harness.call(harness.sessions.path + "/?code=" + code, bearer: false)
        #expect(again.status == .unauthorized)
        #expect(again.body.contains("already used"), "\(again.body)")
        let wrong = await harness.call(harness.sessions.path + "/?code=" + String(repeating: "0", count: 32), bearer: false)
        #expect(wrong.status == .unauthorized && !wrong.body.contains("already used"), "\(wrong.body)")
        let late = harness.sessions.issueCode()
        harness.clock.advance(by: .seconds(61))
        #expect(harness.sessions.use(late) == .expired)
        #expect(harness.sessions.use(late) == .alreadyUsed)
    }

    /// The link file: 0600 in a 0700 folder, named without the code, holding the link; never
    /// written through a name someone made first (a FIFO there: a clear error, no hang).
    @Test func theLinkFileIsPrivateAndNamedWithoutTheCode() throws {
        let code = String(repeating: "5", count: 32)
        let link = "http://127.0.0.1:11190/p/\(String(repeating: "7", count: 32))/?code=\(code)"
        let address = try PageTrampoline.write(link: link, folder: folder)
        #expect(address.hasPrefix("file://" + folder + "/open-") && address.hasSuffix(".html"))
        #expect(!address.contains(code))
        let path = String(address.dropFirst("file://".count))
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600)
        #expect(lstat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(PrivateFiles.read(path)?.contains("url=\(link)") == true)
        PageTrampoline.remove(code: code, folder: folder)
        #expect(access(path, F_OK) != 0, "removed once its code is used")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: PageTrampoline.Problem.self) { try PageTrampoline.write(link: link, folder: folder) }
        unlink(path)
        #expect(throws: PageTrampoline.Problem.self) { try PageTrampoline.write(link: "http://127.0.0.1:1/", folder: folder) }
        // Only the server's own plain links: nothing that could be markup.
        #expect(throws: PageTrampoline.Problem.self) {
            try PageTrampoline.write(link: "http://127.0.0.1:1/?code=a\"><script>", folder: folder)
        }
    }

    @Test func thePortStatusSaysBoundOrUnboundAndNeverOverridesAnotherRenderersBound() throws {
        try PrivateFiles.folder(folder)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .unknown)
        try ControlPortStatus.write(bound: false, port: 11190, folder: folder)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .unbound(pid: getpid()))
        try ControlPortStatus.write(bound: true, port: 11190, folder: folder)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .bound(pid: getpid()))
        ControlPortStatus.remove(port: 11190, folder: folder)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .unknown)
        // Another running renderer (pid 1 stands for it) serves the port: our failure leaves its word.
        let path = folder + "/" + ControlPortStatus.fileName(port: 11190)
        try PrivateFiles.replace(path, "bound 1\n")
        try ControlPortStatus.write(bound: false, port: 11190, folder: folder)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .bound(pid: 1))
        ControlPortStatus.remove(port: 11190, folder: folder)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .bound(pid: 1), "not ours to remove")
        // A file others could write says nothing.
        chmod(path, 0o644)
        #expect(ControlPortStatus.read(port: 11190, folder: folder) == .unknown)
    }
}
