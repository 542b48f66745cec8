// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials
import Glibc
import InMemoryLogging
import Logging
import CommentBarTestSupport
import XCTest
@testable import CommentBarServe

/// The renderer keeps the source's secrets (the Mirrativ session), never OBS: a 0600 file in a
/// 0700 folder, written atomically, never through a symbolic link; read back on a later settings
/// line that only says one is saved; deleted by "Forget"; never logged.
final class SecretStoreTests: XCTestCase {
    private var base = ""
    private var id: SecretID!
    private let secret = "hunter2-mr_id-value"

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID())").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        id = try XCTUnwrap(SecretID("0123456789abcdef0123456789abcdef"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: base)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0xFFFF
    }

    private func text(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "(none)"
    }

    private func write(_ text: String, to path: String, mode: mode_t = 0o600) {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), path)
        chmod(path, mode)
    }

    /// A settings line as the shim sends it: the secret (when given), the file's id, the flag.
    private func line(session: String = "", id: String? = nil, saved: Bool = false) -> String {
        var members = [#""service":"demo""#, #""width":320"#, #""height":120"#, #""mirrativ_session":"\#(session)""#]
        if let id { members.append(#""secrets_id":"\#(id)""#) }
        if saved { members.append(#""mirrativ_session_saved":true"#) }
        return #"{"settings":{"# + members.joined(separator: ",") + "}}"
    }

    private func credentials(_ secrets: inout SourceSecrets, _ line: String) throws -> [String: String] {
        let message = try StdinMessage.decode(line: line)
        let settings = try XCTUnwrap(message.settings)
        return secrets.credentials(for: settings, reference: message.secrets)
    }

    func testAFirstSaveMakesTheFolderAndItsParents0700AndTheFile0600() throws {
        let folder = base + "/config/comment-bar/secrets"
        let old = umask(0o022)
        defer { umask(old) }
        let store = SecretStore(folder: folder)
        try store.save(["mirrativ_session": secret], id: id)
        XCTAssertEqual(mode(base + "/config/comment-bar"), 0o700)
        XCTAssertEqual(mode(folder), 0o700)
        XCTAssertEqual(mode(store.path(of: id)), 0o600)
        XCTAssertEqual(try store.load(id: id), ["mirrativ_session": secret])
    }

    func testAFolderOthersCouldOpenIsMadePrivate() throws {
        let folder = base + "/secrets"
        mkdir(folder, 0o755)
        chmod(folder, 0o755)
        try SecretStore(folder: folder).save(["mirrativ_session": secret], id: id)
        XCTAssertEqual(mode(folder), 0o700)
    }

    /// A new file renamed over the old: an open reader keeps the old whole, nothing is left beside.
    func testASaveReplacesTheFileAtomically() throws {
        let store = SecretStore(folder: base + "/secrets")
        try store.save(["mirrativ_session": "old-value"], id: id)
        let reader = open(store.path(of: id), O_RDONLY)
        defer { close(reader) }
        try store.save(["mirrativ_session": "new-value"], id: id)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(reader, &bytes, bytes.count)
        let before = String(decoding: bytes[0..<max(count, 0)], as: UTF8.self)
        XCTAssertTrue(before.contains("old-value"), before)
        XCTAssertEqual(try store.load(id: id), ["mirrativ_session": "new-value"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.folder), [id.description])
    }

    func testASymbolicLinkIsNeverFollowed() throws {
        let store = SecretStore(folder: base + "/secrets")
        mkdir(store.folder, 0o700)
        let outside = base + "/outside"
        write("not a secret of ours", to: outside)
        symlink(outside, store.path(of: id))
        XCTAssertThrowsError(try store.load(id: id)) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        try store.save(["mirrativ_session": secret], id: id)
        XCTAssertEqual(text(outside), "not a secret of ours", "written through the link")
        XCTAssertEqual(mode(store.path(of: id)), 0o600, "the link itself is replaced by the file")

        // A folder that is a link: refused, nothing written where it points.
        let elsewhere = base + "/elsewhere"
        mkdir(elsewhere, 0o700)
        symlink(elsewhere, base + "/linked")
        let linked = SecretStore(folder: base + "/linked")
        XCTAssertThrowsError(try linked.save(["mirrativ_session": secret], id: id))
        XCTAssertThrowsError(try linked.load(id: id))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
    }

    func testFilesThatAreTooLargeReadableByOthersOrNotOursAreRefused() throws {
        let store = SecretStore(folder: base + "/secrets")
        mkdir(store.folder, 0o700)
        let path = store.path(of: id)
        write(#"{"mirrativ_session":""# + String(repeating: "a", count: SecretStore.sizeLimit) + #""}"#, to: path)
        XCTAssertThrowsError(try store.load(id: id)) { XCTAssertTrue("\($0)".contains("larger than 64 KiB"), "\($0)") }
        write(#"{"mirrativ_session":"\#(secret)"}"#, to: path, mode: 0o644)
        XCTAssertThrowsError(try store.load(id: id)) { XCTAssertTrue("\($0)".contains("read by others"), "\($0)") }
        write("mr_id=\(secret)", to: path)
        XCTAssertThrowsError(try store.load(id: id)) { error in
            XCTAssertFalse("\(error)".contains(secret), "a problem never quotes the file")
        }
        XCTAssertThrowsError(try store.save(["mirrativ_session": String(repeating: "b", count: SecretStore.sizeLimit)], id: id))
    }

    func testDeleteAndIDs() throws {
        let store = SecretStore(folder: base + "/secrets")
        XCTAssertNoThrow(try store.delete(id: id), "no folder yet: nothing to delete")
        XCTAssertEqual(try store.load(id: id), [:], "no folder yet: nothing saved")
        try store.save(["mirrativ_session": secret], id: id)
        try store.delete(id: id)
        XCTAssertEqual(access(store.path(of: id), F_OK), -1)
        XCTAssertNoThrow(try store.delete(id: id))
        for bad in ["../../../../etc/passwd", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcde",
                    "0123456789abcdef0123456789abcdef0", "", "0123456789abcdef/123456789abcdef"] {
            XCTAssertNil(SecretID(bad), bad)
        }
    }

    /// The shim sends a secret once: saved then; a later line (a restarted renderer's too) that
    /// only says one is saved gets it back from the file; "Forget" deletes it; nothing is logged
    /// with the value.
    func testASecretSentOnceIsSavedReadBackAndForgotten() throws {
        let store = SecretStore(folder: base + "/secrets")
        let log = CapturedLog()
        var secrets = SourceSecrets(store: store, log: log.logger)
        let first = try credentials(&secrets, line(session: secret, id: id.description, saved: true))
        XCTAssertEqual(first, ["mirrativ_session": secret])
        XCTAssertEqual(try store.load(id: id), ["mirrativ_session": secret])
        XCTAssertEqual(mode(store.path(of: id)), 0o600)
        XCTAssertEqual(try credentials(&secrets, line(id: id.description, saved: true)), first)

        var restarted = SourceSecrets(store: store, log: log.logger)
        XCTAssertEqual(try credentials(&restarted, line(id: id.description, saved: true)), first,
                       "a later line without the secret: read back from the file")
        XCTAssertEqual(try credentials(&restarted, line(id: id.description)), [:],
                       "a line that says none is saved (after Forget) gets none")

        restarted.forget()
        XCTAssertEqual(access(store.path(of: id), F_OK), -1, "Forget deleted the file")
        XCTAssertEqual(try credentials(&restarted, line(id: id.description, saved: true)), [:])
        XCTAssertTrue(log.lines.contains { $0.contains("paste it again") }, "\(log.lines)")
        XCTAssertFalse(log.lines.contains { $0.contains(secret) }, "\(log.lines)")

        // A shim that knows no store (no id, no flag) sends the secret in every line: used as sent.
        var older = SourceSecrets(store: SecretStore(folder: base + "/unused"), log: log.logger)
        XCTAssertEqual(try credentials(&older, line(session: secret)), ["mirrativ_session": secret])
        XCTAssertEqual(access(base + "/unused", F_OK), -1, "nothing written without an id")
    }

    /// A store that cannot write (here its folder's place is a file): the secret sent is used for
    /// this renderer's life, and the log says why, once, without it.
    func testASecretThatCannotBeSavedIsUsedUntilTheRendererEnds() throws {
        write("not a folder", to: base + "/secrets")
        let log = CapturedLog()
        var secrets = SourceSecrets(store: SecretStore(folder: base + "/secrets"), log: log.logger)
        XCTAssertEqual(try credentials(&secrets, line(session: secret, id: id.description, saved: true)),
                       ["mirrativ_session": secret])
        XCTAssertEqual(try credentials(&secrets, line(id: id.description, saved: true)),
                       ["mirrativ_session": secret])
        let warnings = log.lines.filter { $0.hasPrefix("warning") }
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("used until OBS quits") ?? false, "\(warnings)")
        XCTAssertFalse(log.lines.contains { $0.contains(secret) }, "\(log.lines)")
        secrets.forget()
        XCTAssertEqual(try credentials(&secrets, line(id: id.description, saved: true)), [:],
                       "after Forget nothing sent before is used")
    }

    /// Through a session: the settings line's secret lands in the file; a forget_secrets that goes
    /// up deletes it once; the first value a renderer sees is a baseline, never a press.
    func testTheSessionSavesOnASettingsLineAndDeletesOnForget() async throws {
        let store = SecretStore(folder: base + "/secrets")
        let sink = MemoryFrameSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        let session = ServeSession(sink: sink, log: CapturedLog().logger, fetch: { _ in .failed("no network") },
                                   actions: RecordingActions(), secretStore: store)
        let task = Task { await session.run(messages: messages) }
        func waitFor(_ condition: () -> Bool) async {
            let deadline = ContinuousClock.now + .seconds(10)
            while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        }
        input.yield(line(session: secret, id: id.description, saved: true))
        input.yield(#"{"actions":{"pin_newest":0,"unpin":0,"open_control":0,"forget_secrets":3}}"#)
        input.yield(line(id: id.description, saved: true))
        await waitFor { access(store.path(of: id), F_OK) == 0 }
        try? await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(try store.load(id: id), ["mirrativ_session": secret], "saved, and a baseline of 3 forgot nothing")
        input.yield(line(id: id.description))
        input.yield(#"{"actions":{"pin_newest":0,"unpin":0,"open_control":0,"forget_secrets":4}}"#)
        await waitFor { access(store.path(of: id), F_OK) != 0 }
        input.finish()
        await task.value
        XCTAssertEqual(access(store.path(of: id), F_OK), -1, "forget_secrets 3 -> 4 deleted the file")
    }

    func testNewKeysDecodeAndABadLineNamingASecretIsNeverQuoted() throws {
        let message = try StdinMessage.decode(line: line(id: id.description, saved: true))
        XCTAssertEqual(message.secrets, SecretReference(id: id.description, saved: ["mirrativ_session"]))
        XCTAssertEqual(try StdinMessage.decode(line: line()).secrets, SecretReference())
        XCTAssertEqual(try StdinMessage.decode(line: #"{"actions":{"forget_secrets":2}}"#).actions,
                       ActionCounters(forgetSecrets: 2))
        for bad in [#"{"settings":{"secrets_id":"\#(id.description)","mirrativ_session_saved":true,"mirrativ_session":"\#(secret)","#,
                    #"{"settings":{"mirrativ_session":"\#(secret)","width":"#] {
            XCTAssertThrowsError(try StdinMessage.decode(line: bad)) { error in
                XCTAssertFalse("\(error)".contains(secret), "\(error)")
            }
        }
    }
}
