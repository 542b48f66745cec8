// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings
import Foundation
import XCTest
@testable import CommentBarCore

/// The settings table (CModules/CommentBarSettings) is the one source of every key,
/// default and range; the shim builds its defaults and clamps from the same table.
final class SettingsSchemaTests: XCTestCase {
    private func rows() -> [cb_setting] {
        (0..<Int(CB_SETTING_COUNT.rawValue)).compactMap { cb_setting_at($0)?.pointee }
    }

    /// The shim's default settings line, built from the table as the shim builds it
    /// (font rows into the "font" object), decodes to `BarSettings()`.
    func testTheShimsDefaultsLineDecodesToBarSettingsDefaults() throws {
        var object: [String: Any] = [:]
        var font: [String: Any] = [:]
        for row in rows() {
            let key = String(cString: row.key)
            let value: Any
            switch row.type {
            case CB_SETTING_STRING: value = String(cString: row.default_string)
            case CB_SETTING_BOOL: value = row.default_number != 0
            case CB_SETTING_LIST: value = [Any]()
            default: value = row.default_number
            }
            if key.hasPrefix("font.") { font[String(key.dropFirst(5))] = value } else { object[key] = value }
        }
        object["font"] = font
        let line = try JSONSerialization.data(withJSONObject: ["settings": object])
        struct Command: Decodable { var settings: BarSettings }
        XCTAssertEqual(try JSONDecoder().decode(Command.self, from: line).settings, BarSettings())
    }

    /// Every key BarSettings decodes is in the table, and every table key is decoded.
    func testEveryKeyIsInTheTable() {
        let tableKeys = Set(rows().map { String(cString: $0.key) }.map { $0.hasPrefix("font.") ? "font" : $0 })
        let swiftKeys = Set(BarSettings.CodingKeys.allCases.map(\.rawValue))
        XCTAssertEqual(tableKeys, swiftKeys)
        for row in rows() where row.type == CB_SETTING_STRING {
            XCTAssertNotNil(row.default_string, String(cString: row.key))
        }
    }

    /// Each int setting is clamped to the table's range, below and above.
    func testIntRangesClampAsTheTableSays() throws {
        for row in rows() where row.type == CB_SETTING_INT {
            let key = String(cString: row.key)
            for (probe, expected) in [(row.min - 1_000_000, row.min), (row.max + 1_000_000, row.max)] {
                let json: String
                if key.hasPrefix("font.") {
                    json = #"{"font":{"\#(key.dropFirst(5))":\#(probe)}}"#
                } else {
                    json = #"{"\#(key)":\#(probe)}"#
                }
                let settings = try BarSettings.decode(json: Data(json.utf8))
                let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(settings)) as? [String: Any]
                let actual = key.hasPrefix("font.")
                    ? (encoded?["font"] as? [String: Any])?[String(key.dropFirst(5))] as? Int
                    : encoded?[key] as? Int
                XCTAssertEqual(actual, Int(expected), "\(key) = \(probe)")
            }
        }
        XCTAssertEqual(cb_setting_clamp(cb_setting_find("fps"), 1000), 60)
        XCTAssertNil(cb_setting_find("no_such_key"))
    }
}
