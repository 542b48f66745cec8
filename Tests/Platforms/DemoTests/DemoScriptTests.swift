// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import DemoPlatform

final class DemoScriptTests: XCTestCase {
    func testDemoShowsEverything() {
        let (state, _) = DemoScript.timeline.state(at: 20)
        XCTAssertTrue(state.lines.contains { $0.text.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        XCTAssertTrue(state.lines.contains { $0.user == "さくら" })
        XCTAssertTrue(state.lines.contains { if case .gift = $0.kind { true } else { false } })
        XCTAssertFalse(state.lines.contains { $0.id == "d6" }, "the deleted spam is gone")
        XCTAssertEqual(state.viewers, 152)
        XCTAssertNotNil(state.streamStart)
    }
}
