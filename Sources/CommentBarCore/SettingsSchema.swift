// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings

/// The settings table of CModules/CommentBarSettings (commentbar_settings.h), which the OBS
/// shim reads too: every key, default and range of `BarSettings` comes from it, so the two
/// sides cannot disagree. A key missing from the table is a programming error caught by
/// the tests (SettingsSchemaTests); at run time it falls back to a neutral value. Public so
/// every module reads its defaults and ranges here (speech, the overlay's options), copying none.
public enum SettingsSchema {
    public static func string(_ key: String) -> String {
        guard let row = cb_setting_find(key), let value = row.pointee.default_string else { return "" }
        return String(cString: value)
    }

    public static func int(_ key: String) -> Int {
        Int(cb_setting_find(key)?.pointee.default_number ?? 0)
    }

    public static func bool(_ key: String) -> Bool {
        (cb_setting_find(key)?.pointee.default_number ?? 0) != 0
    }

    /// OBS's 0xAABBGGRR colour integers.
    public static func color(_ key: String) -> UInt32 {
        UInt32(truncatingIfNeeded: cb_setting_find(key)?.pointee.default_number ?? 0)
    }

    /// The values an enum row may take (its `choices` column), or none for a free row.
    public static func choices(_ key: String) -> [String] {
        guard let row = cb_setting_find(key), let choices = row.pointee.choices else { return [] }
        return String(cString: choices).split(separator: "|").map(String.init)
    }

    public static func range(_ key: String) -> ClosedRange<Int> {
        guard let row = cb_setting_find(key), row.pointee.min <= row.pointee.max else { return 0...0 }
        return Int(row.pointee.min)...Int(row.pointee.max)
    }

    /// Whether the table has a row with this key.
    public static func isKey(_ key: String) -> Bool { cb_setting_find(key) != nil }

    public static func clamp(_ value: Int, _ key: String) -> Int {
        let range = range(key)
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
