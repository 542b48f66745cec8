// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarNet
import Synchronization
import XCTest

/// The one handling of a broadcast chat's messages (OPENREC, SHOWROOM).
final class BroadcastChatActionTests: XCTestCase {
    func testEachActionEitherReadsOnOrEndsTheConnection() {
        let problems = InputProblemLog(source: "test")
        let emitted = Mutex<[FeedEvent]>([])
        func perform(_ action: BroadcastChatAction) -> ResolvedChatLoop.SessionEnd? {
            action.perform(emit: { event in emitted.withLock { $0.append(event) } }, problems: problems)
        }
        XCTAssertNil(perform(.emit(.viewers(3))))
        XCTAssertNil(perform(.ignore))
        XCTAssertNil(perform(.unknown("a message of unknown kind 7")))
        XCTAssertEqual(emitted.withLock { $0 }, [.viewers(3)], "only emit emits")
        XCTAssertEqual(perform(.ended), .ended("配信終了 / broadcast ended"))
        XCTAssertEqual(perform(.restart), .closed("配信開始 / a new broadcast started"))
    }
}
