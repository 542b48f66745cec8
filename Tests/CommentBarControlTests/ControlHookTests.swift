// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarCore
import CommentBarSupport
import CommentBarTestSupport
import Glibc
import Synchronization
import Testing

/// The hook `serve` holds: the settings start and stop the server; off is nothing at all.
@Suite(.serialized) struct ControlHookTests {
    /// Where this test's token lives (removed with the test's value).
    let scratch = TemporaryFolder(prefix: "control-hook")
    var folder: String { scratch.file("comment-bar") }

    /// (The threads of a real renderer with the page off and on are counted by Tests/control: this
    /// test process runs other suites' servers at the same time.)
    @Test func offHasNoSocket() async throws {
        let hook = ControlHook(log: TestSupport.log, backend: RecordingBackend(), tokenFolder: folder)
        hook.configure(enabled: false, port: 0)
        await hook.settle()
        #expect(hook.server == nil && hook.port == nil)

        hook.configure(enabled: true, port: 0)
        await hook.settle()
        let port = try #require(hook.port)
        #expect(!ControlServerTests.listeningAddresses(port: TestSupport.hex4(port)).isEmpty)

        hook.configure(enabled: false, port: port)
        await hook.settle()
        #expect(hook.server == nil)
        #expect(ControlServerTests.listeningAddresses(port: TestSupport.hex4(port)).isEmpty)
    }

    @Test func aTakenPortIsAProblemForTheBarAndTheBarGoesOn() async throws {
        let other = try await TestSupport.startServer()
        let changes = Mutex(0)
        let hook = ControlHook(log: TestSupport.log, backend: RecordingBackend(), tokenFolder: folder,
                               changed: { changes.withLock { $0 += 1 } })
        hook.configure(enabled: true, port: other.port)
        await hook.settle()
        #expect(hook.problem == "control page: port \(other.port) is in use by another program; choose another Control port")
        #expect(changes.withLock { $0 } == 1)
        // The dock reads that the renderer could not bind the port, and polls nothing there.
        #expect(ControlPortStatus.read(port: other.port, folder: folder) == .unbound(pid: getpid()))
        hook.configure(enabled: true, port: 0)
        await hook.settle()
        #expect(hook.problem == nil)
        #expect(ControlPortStatus.read(port: other.port, folder: folder) == .unknown, "no longer wanted: no word")
        #expect(hook.port != nil && hook.port != other.port)
        await hook.shutdown()
        await other.stop()
    }

    /// A hook serving on a free port (with `streams`) and an event client it counts as connected.
    private func servingHook(streams: [ControlStream] = []) async throws -> (hook: ControlHook, client: EventClient,
                                                                               port: Int, token: String)? {
        let hook = ControlHook(log: TestSupport.log, backend: RecordingBackend(), tokenFolder: folder)
        hook.configure(enabled: true, port: 0)
        await hook.settle()
        let port = try #require(hook.port)
        let token = try ControlToken.load(folder: folder).token
        hook.streamsChanged(streams)
        guard case .opened(let client) = try await EventClient.connect(port: port, path: "/api/events?token=\(token)",
                                                                      bearer: false) else {
            Issue.record("could not connect with ?token=")
            return nil
        }
        #expect(await TestSupport.eventually { await hook.server?.counts().clients == 1 })
        return (hook, client, port, token)
    }

    /// A taken port is tried again (with backoff) while the settings want it: the status line
    /// says so once, and the page comes up as soon as the port is free.
    @Test func aTakenPortIsTriedAgainUntilItIsFree() async throws {
        let other = try await TestSupport.startServer()
        let changes = Mutex(0)
        let hook = ControlHook(log: TestSupport.log, backend: RecordingBackend(), tokenFolder: folder,
                               retry: Backoff(base: .milliseconds(100), cap: .milliseconds(200)),
                               changed: { changes.withLock { $0 += 1 } })
        hook.configure(enabled: true, port: other.port)
        await hook.settle()
        #expect(hook.problem == "control page: port \(other.port) is in use by another program; choose another Control port")
        try await Task.sleep(for: .milliseconds(700))
        #expect(hook.server == nil)
        #expect(changes.withLock { $0 } == 1, "tried again several times, the same problem: one change of the status line")
        await other.stop()
        // The server is published before the status line is cleared (the port's status file is
        // written between): both, soon.
        #expect(await TestSupport.eventually { hook.port == other.port && hook.problem == nil }, "up once the port is free")
        #expect(changes.withLock { $0 } == 2)
        await hook.shutdown()
    }

    /// The reading hotkeys reach the event API as the page's skip and pause do.
    @Test func aSpeechHotkeyIsAnEvent() async throws {
        guard let (hook, client, _, _) = try await servingHook() else { return }
        let receiving = Task { try await client.events(count: 2) }
        hook.speechAction("skip")
        hook.speechAction("pause")
        let (events, _) = try await receiving.value
        #expect(events.map(\.body) == [.speech(.init(action: "skip")), .speech(.init(action: "pause"))])
        await hook.shutdown()
    }

    @Test func theBarsEventsAndPinReachClients() async throws {
        guard let (hook, client, _, _) = try await servingHook(
            streams: [ControlStream(platform: "twitch", channel: "a", colour: "#9146ff"),
                      ControlStream(platform: "youtube", channel: "b", colour: "#ff0000")]) else { return }
        let receiving = Task { try await client.events(count: 4) }
        let origin = BarState.Origin(index: 1, count: 2, name: "YouTube", service: "youtube", badge: .plain)
        var line = ChatLine(id: "1/x", user: "Yu", text: "やあ")
        line.marks = [RowMark(.firstTime, "初見")]  // as the viewer memory marks a first comment
        hook.heard(.comment(ChatLine(id: "x", user: "Yu", text: "やあ")), shown: line, origin: origin)
        hook.heard(.comment(line), shown: nil, origin: origin)  // filtered out: not sent
        hook.heard(.viewers(42), shown: nil, origin: origin)
        hook.pinShown(BarState.Pin(line: line, until: nil))
        hook.pinShown(BarState.Pin(line: line, until: nil))  // no change: no event
        hook.pinShown(nil)
        let (events, _) = try await receiving.value
        #expect(events.map(\.body.type) == ["comment", "viewers", "pin", "pin"])
        guard case .comment(let comment) = events[0].body, case .pin(let pinned) = events[2].body,
              case .pin(let unpinned) = events[3].body else { return }
        #expect(comment.platform == "youtube" && comment.channel == "b" && comment.firstTime)
        #expect(pinned.pinned && pinned.id == "1/x" && pinned.comment?.channel == "b")
        #expect(!unpinned.pinned && unpinned.id == "1/x")
        await hook.shutdown()
    }

    /// A YouTube video's feed names its channel: the stream's events carry the channel from then
    /// on (as the viewer memory keys viewers), announced by one `channel` event.
    /// The default opener runs the program through `ChildProcess`: found in PATH, no shell (the
    /// URL is one argument, never interpreted), its end and its failures reported.
    @Test func theOpenerRunsTheProgramWithoutAShell() async throws {
        #expect(await BrowserOpener.runProgram(["true", "http://127.0.0.1:1/?a=1;touch /tmp/x&b=$(id)"]) == nil)
        #expect(await BrowserOpener.runProgram(["false"]) == "false ended with exit status 1")
        #expect(await BrowserOpener.runProgram(["no-such-program-here"]) == "no-such-program-here: not found in PATH")
        #expect(BrowserOpener.program(named: "../bin/true") == nil, "a name, never a path")
    }

    @Test func aNamedChannelRenamesTheStream() async throws {
        guard let (hook, client, port, token) = try await servingHook(
            streams: [ControlStream(platform: "youtube", channel: "abcdefghijk", colour: "#ff0000")]) else { return }
        let receiving = Task { try await client.events(count: 4) }
        let origin = BarState.Origin(index: 0, count: 1, name: "YouTube", service: "youtube", badge: .plain)
        let line = ChatLine(id: "m1", user: "Yu", text: "hi")
        hook.heard(.status(.connecting), shown: nil, origin: origin)
        hook.heard(.channel(id: "UCabcdefghijklmnopqrstuv"), shown: nil, origin: origin)
        hook.heard(.channel(id: "UCabcdefghijklmnopqrstuv"), shown: nil, origin: origin)  // the same again: nothing
        hook.heard(.channel(id: "not an id"), shown: nil, origin: origin)
        hook.heard(.viewers(5), shown: nil, origin: origin)
        hook.heard(.comment(line), shown: line, origin: origin)
        let (events, _) = try await receiving.value
        #expect(events.map(\.body.type) == ["status", "channel", "viewers", "comment"])
        guard case .status(let status) = events[0].body, case .channel(let named) = events[1].body,
              case .viewers(let viewers) = events[2].body, case .comment(let comment) = events[3].body else { return }
        #expect(status.channel == "abcdefghijk")
        #expect(named == ControlEvent.Channel(platform: "youtube", channel: "UCabcdefghijklmnopqrstuv", stream: "abcdefghijk"))
        #expect(viewers.channel == "UCabcdefghijklmnopqrstuv" && comment.channel == "UCabcdefghijklmnopqrstuv")
        let state = try await TestSupport.request(port, "/api/state", headers: [("Authorization", "Bearer \(token)")],
                                                  bearer: false)
        #expect(state.body.contains(#""channel":"UCabcdefghijklmnopqrstuv""#) && !state.body.contains("abcdefghijk\""),
                "one stream, under its channel: \(state.body)")
        await hook.shutdown()
    }

    /// "Open control page": `xdg-open` (no shell) gets a file only this user can read that sends
    /// the browser on to the page's one-time link: neither the token nor the code is in its
    /// command line (there for every user's `ps`); the code works once, and the file goes with it.
    @Test func openingThePageRunsXdgOpenWithAPrivateFileNotTheLink() async throws {
        let started = Mutex<[[String]]>([])
        let opener = BrowserOpener(log: TestSupport.log, run: { arguments in
            started.withLock { $0.append(arguments) }
            return "test"
        })
        let hook = ControlHook(log: TestSupport.log, backend: RecordingBackend(), tokenFolder: folder, opener: opener)
        hook.openPage()
        #expect(started.withLock { $0 }.isEmpty, "opened while off")
        hook.configure(enabled: true, port: 0)
        await hook.settle()
        let port = try #require(hook.port)
        hook.openPage()
        let token = try ControlToken.load(folder: folder).token
        #expect(await TestSupport.eventually { started.withLock { !$0.isEmpty } })
        let arguments = started.withLock { $0 }
        #expect(arguments.count == 1 && arguments.first?.count == 2 && arguments.first?.first == "xdg-open")
        let address = try #require(arguments.first?.last)
        #expect(address.hasPrefix("file://" + folder + "/open-"), "\(address)")
        #expect(!address.contains(token) && !address.contains("code") && !address.contains("/p/"), "\(address)")
        let file = String(address.dropFirst("file://".count))
        var info = stat()
        #expect(lstat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let page = try #require(PrivateFiles.read(file))
        let origin = "http://127.0.0.1:\(port)"
        let start = try #require(page.range(of: "url=" + origin))
        let link = String(page[start.upperBound...].prefix { $0 != "\"" })
        #expect(link.hasPrefix("/p/") && link.contains("/?code="), "\(page)")
        #expect(!page.contains(token))
        #expect(try await TestSupport.request(port, link, bearer: false).status == .seeOther)
        #expect(access(file, F_OK) != 0, "the file goes once its code is used")
        let again = try await TestSupport.request(port, link, bearer: false)
        #expect(again.status == .unauthorized && again.body.contains("already used"), "\(again.body)")
        await hook.shutdown()
    }
}
