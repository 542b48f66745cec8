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

    /// Every key BarSettings decodes is in the table, once, and every table key is decoded: the
    /// one list of fields (`SettingField.all`) and the table are the same.
    func testEveryKeyIsInTheTable() {
        // The speech rows are decoded by CommentBarSpeech's SpeechSettings (checked in its tests).
        let tableKeys = Set(rows().map { String(cString: $0.key) }.filter { !$0.hasPrefix("speech") })
        let fieldKeys = SettingField.all.map(\.key)
        XCTAssertEqual(Set(fieldKeys).count, fieldKeys.count, "a field listed twice")
        XCTAssertEqual(tableKeys, Set(fieldKeys + BarSettings.SecretKeys.allCases.map(\.rawValue)))
        let typeOf = Dictionary(uniqueKeysWithValues: rows().map { (String(cString: $0.key), $0.type) })
        for field in SettingField.all {
            XCTAssertEqual(field.clamp != nil, typeOf[field.key] == CB_SETTING_INT, "\(field.key): numbers and only numbers clamp")
        }
        for row in rows() where row.type == CB_SETTING_STRING {
            XCTAssertNotNil(row.default_string, String(cString: row.key))
        }
    }

    /// Settings encoded (what `commentbar overlay` hands its session) decode as the same settings.
    func testEncodedSettingsDecodeAsTheSame() throws {
        var settings = try BarSettings.decode(json: Data(#"{"theme":"light","max_lines":7,"ng_words":["a","b"]}"#.utf8))
        settings.font.size = 33
        settings.textColor = 0xFF00_80FF
        settings.layout = .ticker
        let again = try BarSettings.decode(json: JSONEncoder().encode(settings))
        XCTAssertEqual(again, settings)
    }

    /// Each int setting is clamped to the table's range, below and above.
    func testIntRangesClampAsTheTableSays() throws {
        // The speech rows are clamped by CommentBarSpeech's SpeechSettings (checked in its tests).
        for row in rows() where row.type == CB_SETTING_INT && !String(cString: row.key).hasPrefix("speech") {
            let key = String(cString: row.key)
            for (probe, expected) in [(row.min - 1_000_000, row.min), (row.max + 1_000_000, row.max)] {
                let json: String
                if key.hasPrefix("font.") {
                    json = #"{"font":{"\#(key.dropFirst(5))":\#(probe)}}"#
                } else {
                    json = #"{"\#(key)":\#(probe)}"#
                }
                let settings = try BarSettings.decode(json: Data(json.utf8))
                let field = try XCTUnwrap(SettingField.all.first { $0.key == key }, key)
                XCTAssertEqual(field.value(in: settings), .int(Int(expected)), "\(key) = \(probe)")
            }
        }
        XCTAssertEqual(cb_setting_clamp(cb_setting_find("fps"), 1000), 60)
        XCTAssertNil(cb_setting_find("no_such_key"))
    }

    /// A row's choices ("a|b|c" in the table), in order; empty when it has none.
    private func choices(_ key: String) -> [String] {
        guard let row = cb_setting_find(key), let choices = row.pointee.choices else { return [] }
        return String(cString: choices).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    }

    /// The Swift enums of the string-enum rows have exactly the table's choices, in its order,
    /// and the table's default; a new enum row fails here until its enum is checked too.
    func testStringEnumsAreTheTablesChoices() {
        let checked: [String: [String]] = [
            "clock_source": ClockSource.allCases.map(\.rawValue),
            "ng_mode": NGMode.allCases.map(\.rawValue),
            "viewers_mode": BarSettings.ViewersMode.allCases.map(\.rawValue),
            "overlay_corner": OverlayCorner.allCases.map(\.rawValue),
            "layout": BarSettings.Layout.allCases.map(\.rawValue),
            "newest": BarSettings.NewestEdge.allCases.map(\.rawValue),
            "row_style": BarSettings.RowStyle.allCases.map(\.rawValue),
            "enter": BarSettings.EnterAnimation.allCases.map(\.rawValue),
            "name_colors": BarSettings.NameColors.allCases.map(\.rawValue),
        ]
        let enumRows = Set(rows().filter { $0.choices != nil }.map { String(cString: $0.key) }
            .filter { !$0.hasPrefix("speech") })  // speech_engine: SpeechSettingsTests
        XCTAssertEqual(enumRows, Set(checked.keys), "rows with choices")
        for (key, cases) in checked {
            XCTAssertEqual(choices(key), cases, key)
        }
        XCTAssertEqual(BarSettings().clockSource.rawValue, SettingsSchema.string("clock_source"))
        XCTAssertEqual(BarSettings().ngMode.rawValue, SettingsSchema.string("ng_mode"))
        XCTAssertEqual(BarSettings().viewersMode.rawValue, SettingsSchema.string("viewers_mode"))
        XCTAssertEqual(BarSettings().overlayCorner.rawValue, SettingsSchema.string("overlay_corner"))
        XCTAssertEqual(BarSettings().layout.rawValue, SettingsSchema.string("layout"))
        XCTAssertEqual(BarSettings().newest.rawValue, SettingsSchema.string("newest"))
        XCTAssertEqual(BarSettings().rowStyle.rawValue, SettingsSchema.string("row_style"))
        XCTAssertEqual(BarSettings().enter.rawValue, SettingsSchema.string("enter"))
        XCTAssertEqual(BarSettings().nameColors.rawValue, SettingsSchema.string("name_colors"))
        XCTAssertTrue(cb_setting_allows(cb_setting_find("clock_source"), "feed"))
        XCTAssertFalse(cb_setting_allows(cb_setting_find("clock_source"), "sundial"))
    }

    /// An unknown value of a string enum (a newer shim's, an edited file) decodes as the table's default.
    func testUnknownChoiceDecodesAsTheDefault() throws {
        let settings = try BarSettings.decode(json: Data(#"{"clock_source":"sundial","ng_mode":"blur"}"#.utf8))
        XCTAssertEqual(settings.clockSource.rawValue, SettingsSchema.string("clock_source"))
        XCTAssertEqual(settings.ngMode.rawValue, SettingsSchema.string("ng_mode"))
        // Each is said (serve logs it), naming the key, the value and the known choices.
        XCTAssertEqual(settings.unknownChoices.count, 2)
        let clock = try XCTUnwrap(settings.unknownChoices.first { $0.hasPrefix("clock_source:") })
        XCTAssertTrue(clock.contains(#""sundial""#) && clock.contains("auto, streaming, recording, feed, off"), clock)
        XCTAssertEqual(try BarSettings.decode(json: Data(#"{"clock_source":"feed"}"#.utf8)).unknownChoices, [])
    }

    /// docs/pool-abi.md's settings example has every key of the table, each with the table's default.
    func testTheDocsSettingsExampleIsTheTablesDefaults() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/pool-abi.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        let example = try XCTUnwrap(text.components(separatedBy: "```json\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0] }
            .first { $0.hasPrefix(#"{"settings":"#) }, "no settings example in docs/pool-abi.md")
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(example.utf8)) as? [String: Any], "the example is not JSON")
        let settings = try XCTUnwrap(object["settings"] as? [String: Any])
        let font = settings["font"] as? [String: Any] ?? [:]
        var documented = Set(settings.keys.filter { $0 != "font" })
        documented.formUnion(font.keys.map { "font.\($0)" })
        let tableKeys = Set(rows().map { String(cString: $0.key) })
        XCTAssertEqual(documented.symmetricDifference(tableKeys).sorted(), [],
                       "keys in only one of the doc's example and the table")
        for row in rows() {
            let key = String(cString: row.key)
            let value = key.hasPrefix("font.") ? font[String(key.dropFirst(5))] : settings[key]
            switch row.type {
            case CB_SETTING_STRING: XCTAssertEqual(value as? String, String(cString: row.default_string), key)
            case CB_SETTING_BOOL: XCTAssertEqual(value as? Bool, row.default_number != 0, key)
            case CB_SETTING_LIST: XCTAssertEqual((value as? [Any])?.count, 0, key)
            default: XCTAssertEqual((value as? Int).map(Int64.init), row.default_number, key)
            }
        }
    }
}
