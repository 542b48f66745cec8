// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarActions
import CommentBarCore
import CommentBarSupport
import InMemoryLogging
import Logging
import NIOCore
import Synchronization
import XCTest

/// `ActionsHook`'s sender in process, its links a test double (`ScriptedLinks`): the backoff while
/// a target is down, what waited handed over to a new target, each rule's own budget, and a
/// target that answers no.
final class ActionsHookTests: XCTestCase {
    let logs = InMemoryLogHandler()
    let links = ScriptedLinks()

    func makeHook() -> ActionsHook {
        var handler = logs
        handler.logLevel = .trace
        return ActionsHook(log: Logger(label: "actions") { [handler] _ in handler },
                           retry: Backoff(base: .milliseconds(20), cap: .milliseconds(40), jitter: false), links: links)
    }

    func settings(_ target: String, rules: [String] = ["first_time=Welcome", "comment=Log", "gift_min:100=Big thanks"],
                  perSecond: Int = 5) -> BarSettings {
        var settings = BarSettings()
        settings.actionsTarget = target
        settings.actions = rules
        settings.actionsPerSecond = perSecond
        return settings
    }

    func comment(_ id: String, firstTime: Bool = false) -> ActionRow {
        var line = ChatLine(id: id, user: "U\(id)", text: "hello \(id)")
        if firstTime { line.marks = [RowMark(.firstTime, "初見")] }
        return ActionRow(line: line, platform: "twitch", channel: "chan")
    }

    func gift(_ id: String, bits: Int) -> ActionRow {
        ActionRow(line: ChatLine(id: id, user: "G\(id)", text: "", kind: .gift(name: "Bits", count: bits)),
                  platform: "twitch", channel: "chan")
    }

    func hear(_ hook: ActionsHook, _ row: ActionRow) { hook.heard(shown: row, original: row) }

    func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("never: \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    var logLines: [String] { logs.entries.map { "\($0.message)" } }

    func testADownTargetIsTriedAgainAfterTheBackoffWithOneStatusLine() async throws {
        let hook = makeHook()
        links.setDown("http://127.0.0.1:7474", true)
        hook.configure(settings("http://127.0.0.1:7474/DoAction"))
        hear(hook, comment("c1"))
        try await waitFor("three tries") { links.tries("http://127.0.0.1:7474") >= 3 }
        XCTAssertEqual(hook.problems.current, "actions: http://127.0.0.1:7474: down; trying again")
        XCTAssertEqual(logLines.filter { $0.contains("trying again") }.count, 1, "\(logLines)")
        XCTAssertGreaterThanOrEqual(links.resets("http://127.0.0.1:7474"), 2, "each failure drops the connection")
        links.setDown("http://127.0.0.1:7474", false)
        try await waitFor("the action sent once it is back") { links.sent("http://127.0.0.1:7474") == ["Log"] }
        try await waitFor("the status line cleared") { hook.problems.current == nil }
        XCTAssertTrue(logLines.contains("actions: http://127.0.0.1:7474 reached again"), "\(logLines)")
        await hook.stop()
    }

    func testWhatWaitedGoesToTheNewTargetInOrder() async throws {
        let hook = makeHook()
        links.setDown("http://127.0.0.1:1", true)
        hook.configure(settings("http://127.0.0.1:1/DoAction"))
        for id in ["a", "b", "c"] { hear(hook, comment(id)) }
        try await waitFor("a try at the old target") { links.tries("http://127.0.0.1:1") >= 1 }
        hook.configure(settings("http://127.0.0.1:7474/DoAction"))
        try await waitFor("all three at the new target") { links.sent("http://127.0.0.1:7474").count == 3 }
        XCTAssertEqual(links.sentIDs("http://127.0.0.1:7474"), ["a", "b", "c"])
        XCTAssertEqual(links.sent("http://127.0.0.1:1"), [])
        await hook.stop()
    }

    /// The sender runs on the loop its link connects on: an action's write and answer need no
    /// other thread (each hop between threads wakes one).
    func testEverySendRunsOnTheLinksEventLoop() async throws {
        let hook = makeHook()
        hook.configure(settings("http://127.0.0.1:7474/DoAction"))
        for id in ["a", "b", "c", "d"] { hear(hook, comment(id)) }
        try await waitFor("four sent") { links.sent("http://127.0.0.1:7474").count == 4 }
        XCTAssertEqual(links.sendsOffTheirLoop, 0)
        XCTAssertEqual(links.sendsOnTheirLoop, 4)
        await hook.stop()
    }

    /// The audience's rules run with their happening's arguments and its event; a comment rule
    /// does not run for them.
    func testTheAudiencesRulesRunWithTheirArguments() async throws {
        let hook = makeHook()
        hook.configure(settings("http://127.0.0.1:7474/DoAction", rules: ["comment=Log", "queue_next=Your turn"]))
        hook.audience(AudienceHappening(.pollClosed, args: ["question": .text("Q")]))
        hook.audience(AudienceHappening(.queueNext, args: ["name": .text("Aki"), "position": .integer(1)]))
        try await waitFor("the queue_next action") { links.sent("http://127.0.0.1:7474").count == 1 }
        XCTAssertEqual(links.sent("http://127.0.0.1:7474"), ["Your turn"])
        XCTAssertEqual(links.sentArgs("http://127.0.0.1:7474").first,
                       ["name": .text("Aki"), "position": .integer(1), "event": .text("queue_next")])
        await hook.stop()
    }

    func testABurstOfCommentsNeverDropsTheGiftAndEachRuleCountsItsOwn() async throws {
        let hook = makeHook()
        hook.configure(settings("http://127.0.0.1:7474/DoAction", perSecond: 2))
        hear(hook, comment("c1", firstTime: true))
        for id in ["c2", "c3", "c4", "c5"] { hear(hook, comment(id)) }
        hear(hook, gift("g1", bits: 150))
        try await waitFor("the gift") { links.sent("http://127.0.0.1:7474").contains("Big thanks") }
        try await waitFor("all admitted") { links.sent("http://127.0.0.1:7474").count == 4 }
        XCTAssertEqual(links.sent("http://127.0.0.1:7474"), ["Welcome", "Log", "Log", "Big thanks"])
        XCTAssertEqual(hook.counts.overLimit, ["comment=Log": 3])
        // One line a minute per rule, with its count so far: the first refusal's.
        XCTAssertEqual(logLines.filter { $0.contains("ran more than") },
                       ["actions: the rule \"comment=Log\" ran more than 2 a second (actions_per_second): 1 not sent so far"])
        await hook.stop()
    }

    func testATargetThatAnswersNoSkipsTheActionAndSaysWhy() async throws {
        let hook = makeHook()
        links.setRefusing("http://127.0.0.1:7474", true)
        hook.configure(settings("http://127.0.0.1:7474/DoAction"))
        hear(hook, comment("c1"))
        try await waitFor("the refusal on the status line") { hook.problems.current?.contains("answered 404") == true }
        links.setRefusing("http://127.0.0.1:7474", false)
        hear(hook, comment("c2"))
        try await waitFor("the next action sent") { links.sentIDs("http://127.0.0.1:7474") == ["c2"] }
        XCTAssertEqual(links.tries("http://127.0.0.1:7474"), 2, "a refused action is not tried again")
        await hook.stop()
    }

    private func matched(_ rule: String, _ id: String) -> MatchedAction {
        let rule = ActionRule.parse([rule]).rules[0]
        return MatchedAction(rule: rule, request: DoAction(action: rule.action, args: ["id": .text(id)]))
    }

    func testAFullQueueDropsACommentFirst() {
        let queue = ActionQueue(limit: 3)
        queue.push(matched("comment=Log", "c1"))
        queue.push(matched("gift=Thanks", "g1"))
        queue.push(matched("comment=Log", "c2"))
        queue.push(matched("pin=Pinned", "p1"))
        XCTAssertEqual(queue.close().map { $0.request.args["id"] }, [.text("g1"), .text("c2"), .text("p1")])
        XCTAssertEqual(queue.takeDropped(), ["comment=Log": 1])

        let full = ActionQueue(limit: 2)
        full.push(matched("gift=Thanks", "g1"))
        full.push(matched("first_time=Welcome", "w1"))
        full.push(matched("comment=Log", "c1"))
        XCTAssertEqual(full.close().map { $0.request.args["id"] }, [.text("g1"), .text("w1")], "the comment gave way")
        XCTAssertEqual(full.takeDropped(), ["comment=Log": 1])
    }

    /// The hook tells the link when an action waits behind another (the link then reads the
    /// answer it holds back): not for one queued alone, which is the next sent.
    func testAnActionQueuedBehindAnotherSaysSo() async {
        let queue = ActionQueue(limit: 5)
        XCTAssertFalse(queue.push(matched("comment=Log", "c1")), "alone: it is the next sent")
        XCTAssertTrue(queue.push(matched("comment=Log", "c2")))
        guard let first = await queue.next() else { return XCTFail("nothing taken") }
        queue.finished(first)
        guard let second = await queue.next() else { return XCTFail("nothing taken") }
        XCTAssertTrue(queue.push(matched("comment=Log", "c3")), "behind the one being sent")
        queue.finished(second)
        queue.close()
        XCTAssertFalse(queue.push(matched("comment=Log", "c4")), "closed: not queued")
    }

    func testTheBudgetIsEachRulesOwn() {
        var budgets = ActionBudgets(perSecond: 2)
        let comment = ActionRule(event: .comment, action: "Log"), gift = ActionRule(event: .giftMin(100), action: "Big")
        let now = ContinuousClock.now
        XCTAssertEqual((0..<4).map { _ in budgets.admit(comment, now: now) }, [true, true, false, false])
        XCTAssertTrue(budgets.admit(gift, now: now))
        XCTAssertEqual(budgets.takeRefused(), ["comment=Log": 2])
        XCTAssertEqual(gift.label, "gift_min:100=Big")
    }
}

/// Links that do as the test says, per target (scheme, host and port): down (cannot be reached),
/// refusing (answers 404), else they take the action.
final class ScriptedLinks: ActionLinkMaker {
    private struct Target {
        var down = false
        var refusing = false
        var tries = 0
        var resets = 0
        var sent: [DoAction] = []
    }

    private let targets = Mutex<[String: Target]>([:])
    /// Sends made on the loop their link was given, and elsewhere.
    private let placed = Mutex((on: 0, off: 0))

    func link(to target: ActionTarget, password: String?, on loop: any EventLoop) -> any ActionLink {
        Link(key: target.description, links: self, loop: loop)
    }

    var sendsOnTheirLoop: Int { placed.withLock { $0.on } }
    var sendsOffTheirLoop: Int { placed.withLock { $0.off } }

    func setDown(_ key: String, _ down: Bool) { targets.withLock { $0[key, default: Target()].down = down } }
    func setRefusing(_ key: String, _ refusing: Bool) { targets.withLock { $0[key, default: Target()].refusing = refusing } }
    func tries(_ key: String) -> Int { targets.withLock { $0[key]?.tries ?? 0 } }
    func resets(_ key: String) -> Int { targets.withLock { $0[key]?.resets ?? 0 } }
    func sent(_ key: String) -> [String] { targets.withLock { $0[key]?.sent.map(\.action) ?? [] } }
    func sentArgs(_ key: String) -> [[String: ActionArgument]] { targets.withLock { $0[key]?.sent.map(\.args) ?? [] } }

    func sentIDs(_ key: String) -> [String] {
        targets.withLock {
            $0[key]?.sent.compactMap { if case .text(let id) = $0.args["id"] { id } else { nil } } ?? []
        }
    }

    private struct Link: ActionLink {
        let key: String
        let links: ScriptedLinks
        let loop: any EventLoop

        func send(_ action: DoAction) async throws(ActionFailure) {
            let onLoop = loop.inEventLoop
            links.placed.withLock { if onLoop { $0.on += 1 } else { $0.off += 1 } }
            let (down, refusing) = links.targets.withLock { targets -> (Bool, Bool) in
                targets[key, default: Target()].tries += 1
                let target = targets[key, default: Target()]
                if !target.down, !target.refusing { targets[key]?.sent.append(action) }
                return (target.down, target.refusing)
            }
            if down { throw ActionFailure(description: "\(key): down") }
            if refusing { throw ActionFailure(description: "\(key) answered 404 Not Found", answered: true) }
        }

        func reset() async { links.targets.withLock { $0[key, default: Target()].resets += 1 } }
    }
}
