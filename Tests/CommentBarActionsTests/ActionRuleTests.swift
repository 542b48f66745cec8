// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarActions
import CommentBarCore
import XCTest

/// The `actions` setting's lines and the `actions_target` address.
final class ActionRuleTests: XCTestCase {
    func testEveryEventReads() {
        let (rules, problems) = ActionRule.parse([
            "first_time=Welcome", "welcome_back = Back again ", "comment=Log", "keyword:こんにちは=Hello",
            "gift=Thanks", "gift_min:500=Big thanks", "pin=Pinned", "ng=Timeout", "", "# a note",
            "poll_closed=Result", "QUEUE_JOIN=Joined", "queue_next=Your turn", "giveaway_winner=Winner",
        ])
        XCTAssertEqual(problems, [])
        XCTAssertEqual(rules, [
            ActionRule(event: .firstTime, action: "Welcome"), ActionRule(event: .welcomeBack, action: "Back again"),
            ActionRule(event: .comment, action: "Log"), ActionRule(event: .keyword("こんにちは"), action: "Hello"),
            ActionRule(event: .gift, action: "Thanks"), ActionRule(event: .giftMin(500), action: "Big thanks"),
            ActionRule(event: .pin, action: "Pinned"), ActionRule(event: .ng, action: "Timeout"),
            ActionRule(event: .audience(.pollClosed), action: "Result"), ActionRule(event: .audience(.queueJoin), action: "Joined"),
            ActionRule(event: .audience(.queueNext), action: "Your turn"),
            ActionRule(event: .audience(.giveawayWinner), action: "Winner"),
        ])
        XCTAssertEqual(rules.suffix(4).map(\.label), ["poll_closed=Result", "queue_join=Joined", "queue_next=Your turn",
                                                       "giveaway_winner=Winner"])
    }

    func testALineThatDoesNotReadIsSaidWithItsNumber() {
        let (rules, problems) = ActionRule.parse(["first_time", "gift_min:lots=X", "keyword:=Y", "raid=Z", "gift=",
                                                  "poll_closed:2=W"])
        XCTAssertEqual(rules, [])
        XCTAssertEqual(problems.count, 6)
        XCTAssertTrue(problems[5].contains("unknown event \"poll_closed:2\""), problems[5])
        XCTAssertTrue(problems[0].hasPrefix("actions: rule 1 \"first_time\": no ="), problems[0])
        XCTAssertTrue(problems[3].contains("unknown event \"raid\""), problems[3])
    }

    func testTargets() throws {
        XCTAssertNil(try ActionTarget.parse("  "))
        XCTAssertEqual(try ActionTarget.parse("http://127.0.0.1:7474/DoAction"),
                       ActionTarget(transport: .http(path: "/DoAction"), host: "127.0.0.1", port: 7474))
        XCTAssertEqual(try ActionTarget.parse("http://192.168.1.20"),
                       ActionTarget(transport: .http(path: "/DoAction"), host: "192.168.1.20", port: 7474))
        XCTAssertEqual(try ActionTarget.parse("ws://[::1]:8080/"), ActionTarget(transport: .webSocket(path: "/"), host: "::1", port: 8080))
        XCTAssertEqual(try ActionTarget.parse("udp://localhost"), ActionTarget(transport: .udp, host: "localhost", port: 4242))
        for bad in ["https://127.0.0.1/DoAction", "wss://127.0.0.1/", "ftp://x", "http://user:pw@127.0.0.1/", "udp://h/path",
                    "http://127.0.0.1:99999/", "127.0.0.1:7474", "http://"] {
            XCTAssertThrowsError(try ActionTarget.parse(bad), bad)
        }
    }

    func testATargetIsQuotedWithItsSchemeHostAndPortOnly() throws {
        do {
            _ = try ActionTarget.parse("http://user:pw@127.0.0.1:7474/DoAction?key=s3cret")
            XCTFail("user info was taken")
        } catch {
            XCTAssertTrue(error.description.hasPrefix(#"actions: "http://127.0.0.1:7474" is not an address for actions: "#),
                          error.description)
            for secret in ["user", "pw", "/DoAction?", "s3cret"] { XCTAssertFalse(error.description.contains(secret), secret) }
        }
        do {
            _ = try ActionTarget.parse("hunter2 pasted here")
            XCTFail("not an address")
        } catch {
            XCTAssertFalse(error.description.contains("hunter2"), error.description)
        }
        let target = try XCTUnwrap(ActionTarget.parse("http://127.0.0.1:7474/DoAction?key=s3cret"))
        XCTAssertEqual(target.description, "http://127.0.0.1:7474")
        XCTAssertEqual(target.identity, "http://127.0.0.1:7474/DoAction?key=s3cret", "a new path is a new target")
        XCTAssertEqual(try XCTUnwrap(ActionTarget.parse("ws://[::1]:8080/x")).description, "ws://[::1]:8080")
    }

    func testOnlyThisMachineAndItsNetworkAreReached() async throws {
        for host in ["127.0.0.1", "localhost", "192.168.1.20", "10.0.0.5", "::1"] {
            let target = ActionTarget(transport: .udp, host: host, port: 4242)
            _ = try await LocalAddresses.resolve(target)
        }
        for host in ["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888"] {
            do {
                _ = try await LocalAddresses.resolve(ActionTarget(transport: .udp, host: host, port: 4242))
                XCTFail("\(host) was allowed")
            } catch {
                XCTAssertTrue(error.description.contains("on the internet"), error.description)
            }
        }
    }

    func testTheRateAdmitsNPerSecond() {
        var rate = ActionRate(perSecond: 3)
        let start = ContinuousClock.now
        XCTAssertEqual((0..<10).map { _ in rate.admit(now: start) }, [true, true, true] + Array(repeating: false, count: 7))
        XCTAssertEqual(rate.takeRefused(), 7)
        XCTAssertTrue(rate.admit(now: start + .milliseconds(1001)))
    }

    func testStreamerBotsAuthentication() {
        // base64(sha256(base64(sha256("hunter2" + salt)) + challenge)), worked out with Python's hashlib.
        XCTAssertEqual(StreamerBotAuth.answer(password: "hunter2", salt: "c2FsdA==", challenge: "Y2hhbGxlbmdl"),
                       "HbemcTRAK8GnBZpkRzKZdmk94xa5VYtjm6/uKbA1epI=")
    }

    func testGiftAmounts() {
        XCTAssertEqual(GiftAmount(name: "¥1,000", count: 1), GiftAmount(amount: 1000, currency: "JPY"))
        XCTAssertEqual(GiftAmount(name: "CA$10.00", count: 1), GiftAmount(amount: 10, currency: "CAD"))
        XCTAssertEqual(GiftAmount(name: "$5.00", count: 1), GiftAmount(amount: 5, currency: "USD"))
        XCTAssertEqual(GiftAmount(name: "1,000エール", count: 1), GiftAmount(amount: 1000, currency: "エール"))
        XCTAssertEqual(GiftAmount(name: "ニコニ広告 500pt", count: 1), GiftAmount(amount: 500, currency: "pt"))
        XCTAssertEqual(GiftAmount(name: "Bits", count: 250), GiftAmount(amount: 250, currency: "bits"))
        XCTAssertEqual(GiftAmount(name: "星", count: 10), GiftAmount(amount: 10, currency: ""))
    }
}
