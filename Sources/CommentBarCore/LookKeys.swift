// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings

/// A look setting's value as a theme holds it: the setting's own type.
public enum LookValue: Sendable, Equatable {
    case bool(Bool)
    /// Whole numbers and OBS's 0xAABBGGRR colours.
    case int(Int)
    case text(String)
}

/// The settings a theme may set (issue 38): how the bar looks, never what it reads, where it
/// goes or a file of the streamer's (the avatar), so a theme file can be shared. Each is a row of
/// the settings table (its key, type, range and choices are the table's), read and written here.
public struct LookKey: Sendable {
    public let key: String
    let get: @Sendable (BarSettings) -> LookValue
    let set: @Sendable (inout BarSettings, LookValue) -> Void

    /// The settings table's row (every look key has one: ThemeTests).
    var row: cb_setting? { cb_setting_find(key)?.pointee }

    private init(_ key: String, get: @escaping @Sendable (BarSettings) -> LookValue,
                 set: @escaping @Sendable (inout BarSettings, LookValue) -> Void) {
        self.key = key
        self.get = get
        self.set = set
    }

    static func bool(_ key: String, _ path: WritableKeyPath<BarSettings, Bool> & Sendable) -> LookKey {
        LookKey(key, get: { .bool($0[keyPath: path]) }, set: { if case .bool(let v) = $1 { $0[keyPath: path] = v } })
    }

    static func int(_ key: String, _ path: WritableKeyPath<BarSettings, Int> & Sendable) -> LookKey {
        LookKey(key, get: { .int($0[keyPath: path]) }, set: { if case .int(let v) = $1 { $0[keyPath: path] = v } })
    }

    static func color(_ key: String, _ path: WritableKeyPath<BarSettings, UInt32> & Sendable) -> LookKey {
        LookKey(key, get: { .int(Int($0[keyPath: path])) },
                set: { if case .int(let v) = $1 { $0[keyPath: path] = UInt32(truncatingIfNeeded: v) } })
    }

    static func text(_ key: String, _ path: WritableKeyPath<BarSettings, String> & Sendable) -> LookKey {
        LookKey(key, get: { .text($0[keyPath: path]) }, set: { if case .text(let v) = $1 { $0[keyPath: path] = v } })
    }

    static func choice<T: RawRepresentable<String> & Sendable>(
        _ key: String, _ path: WritableKeyPath<BarSettings, T> & Sendable) -> LookKey {
        LookKey(key, get: { .text($0[keyPath: path].rawValue) },
                set: { if case .text(let v) = $1, let value = T(rawValue: v) { $0[keyPath: path] = value } })
    }

    /// Every look key: the look settings of the one list of settings (`SettingField.all`), in its order.
    public static let all: [LookKey] = SettingField.all.compactMap(\.look)

    /// The look key named `key` (a table key: `font.size`), if it is one.
    public static func named(_ key: String) -> LookKey? { all.first { $0.key == key } }
}

extension BarSettings {
    /// The look these settings give, key by key.
    public var look: [String: LookValue] {
        Dictionary(uniqueKeysWithValues: LookKey.all.map { ($0.key, $0.get(self)) })
    }

    /// Applies a theme's values: each key the theme holds takes the theme's value unless these
    /// settings changed it from the table's default (what the streamer set wins over the theme).
    public mutating func applyLook(_ values: [String: LookValue]) {
        guard !values.isEmpty else { return }
        let defaults = BarSettings()
        for key in LookKey.all {
            guard let value = values[key.key], key.get(self) == key.get(defaults) else { continue }
            key.set(&self, value)
        }
    }
}
