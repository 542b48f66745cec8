// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials
import XCTest
@testable import CommentBarServe

/// A secret setting (the Mirrativ session) reaches the feeds and nothing else: not the log
/// line of a bad stdin line, not the settings' own JSON form.
final class SecretSettingsTests: XCTestCase {
    func testABadLineThatNamesASecretIsNotQuoted() {
        let line = #"{"settings":{"mirrativ_session":"hunter2-secret","width":"#
        XCTAssertThrowsError(try StdinMessage.decode(line: line)) { error in
            let text = (error as? StdinMessage.DecodeError)?.description ?? ""
            XCTAssertFalse(text.contains("hunter2"), text)
            XCTAssertTrue(text.contains("not quoted"), text)
        }
    }

    func testTheSessionIsReadIntoCredentialsAndNeverEncoded() throws {
        let settings = try JSONDecoder().decode(BarSettings.self,
                                                from: Data(#"{"mirrativ_session":"hunter2-secret"}"#.utf8))
        XCTAssertEqual(settings.credentials["mirrativ_session"], "hunter2-secret")
        let encoded = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        XCTAssertFalse(encoded.contains("hunter2"), encoded)
    }
}
