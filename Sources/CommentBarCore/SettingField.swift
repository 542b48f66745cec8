// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings

/// One setting as the renderer reads it: its key (a row of the settings table, which gives its
/// type, default, range and choices), where it lives in `BarSettings`, and whether it is part of a
/// look (a theme may set it). `SettingField.all` is the one list: decoding, clamping, the look
/// keys and the check that every table row has a field (SettingsSchemaTests) loop over it.
public struct SettingField: Sendable {
    public let key: String
    /// Reads the setting from the settings object into `settings`; an unknown choice is said in
    /// `unknown` and the default kept.
    let decode: @Sendable (SettingsObject, inout BarSettings, inout [String]) -> Void
    /// Brings the value within the table's range (numbers only).
    let clamp: (@Sendable (inout BarSettings) -> Void)?
    /// The look key of a look setting (nil: a theme may not set it; a look is how the bar looks,
    /// never what it reads or a file).
    let look: LookKey?
    /// Whether a theme may set it.
    public var isLook: Bool { look != nil }
    /// The value as a theme would hold it (nil: a list).
    let read: @Sendable (BarSettings) -> LookValue?

    /// The setting's value in `settings` (nil for a list).
    public func value(in settings: BarSettings) -> LookValue? { read(settings) }
    /// A list's entries (nil: not a list).
    let entries: (@Sendable (BarSettings) -> [String])?

    static func bool(_ key: String, _ path: WritableKeyPath<BarSettings, Bool> & Sendable, look: Bool = false) -> SettingField {
        SettingField(key: key, decode: { object, s, _ in
            if let value = object.value(Bool.self, key) { s[keyPath: path] = value }
        }, clamp: nil, look: look ? .bool(key, path) : nil, read: { .bool($0[keyPath: path]) }, entries: nil)
    }

    /// A whole number, within the table's range.
    static func int(_ key: String, _ path: WritableKeyPath<BarSettings, Int> & Sendable, look: Bool = false) -> SettingField {
        SettingField(key: key, decode: { object, s, _ in
            if let value = object.value(Int.self, key) { s[keyPath: path] = value }
        }, clamp: { $0[keyPath: path] = SettingsSchema.clamp($0[keyPath: path], key) }, look: look ? .int(key, path) : nil,
           read: { .int($0[keyPath: path]) }, entries: nil)
    }

    /// OBS's 0xAABBGGRR colour, stored in JSON as a signed 64-bit integer.
    static func color(_ key: String, _ path: WritableKeyPath<BarSettings, UInt32> & Sendable, look: Bool = false) -> SettingField {
        SettingField(key: key, decode: { object, s, _ in
            if let value = object.value(Int64.self, key) { s[keyPath: path] = UInt32(truncatingIfNeeded: value) }
        }, clamp: nil, look: look ? .color(key, path) : nil, read: { .int(Int($0[keyPath: path])) }, entries: nil)
    }

    /// Text, at most `maxCharacters` long when given (a path, an address).
    static func text(_ key: String, _ path: WritableKeyPath<BarSettings, String> & Sendable, maxCharacters: Int? = nil,
                     look: Bool = false) -> SettingField {
        SettingField(key: key, decode: { object, s, _ in
            guard let value = object.value(String.self, key) else { return }
            s[keyPath: path] = maxCharacters.map { String(value.prefix($0)) } ?? value
        }, clamp: nil, look: look ? .text(key, path) : nil, read: { .text($0[keyPath: path]) }, entries: nil)
    }

    /// One of the table's choices; anything else is the default, and said.
    static func choice<T: RawRepresentable<String> & Sendable>(_ key: String, _ path: WritableKeyPath<BarSettings, T> & Sendable,
                                                               look: Bool = false) -> SettingField {
        SettingField(key: key, decode: { object, s, unknown in
            guard let text = object.value(String.self, key) else { return }
            if let known = T(rawValue: text) {
                s[keyPath: path] = known
                return
            }
            let choices = SettingsSchema.choices(key).joined(separator: ", ")
            unknown.append("\(key): unknown value \(String(reflecting: String(text.prefix(40)))) "
                           + "(known: \(choices)); \(s[keyPath: path].rawValue) is used")
        }, clamp: nil, look: look ? .choice(key, path) : nil, read: { .text($0[keyPath: path].rawValue) }, entries: nil)
    }

    /// An editable list of OBS (`SettingsList`: its entries' texts, bounded).
    static func list(_ key: String, _ path: WritableKeyPath<BarSettings, [String]> & Sendable) -> SettingField {
        SettingField(key: key, decode: { object, s, _ in
            s[keyPath: path] = object.value(SettingsList.self, key)?.values ?? []
        }, clamp: nil, look: nil, read: { _ in nil }, entries: { $0[keyPath: path] })
    }
}

/// The settings object the shim sends, read by a setting's key: `font.size` in the nested `font`
/// object, as OBS stores the font. A missing or mistyped value is nil (the default stays).
struct SettingsObject {
    let top: KeyedDecodingContainer<NamedCodingKey>
    let font: KeyedDecodingContainer<NamedCodingKey>?

    /// Throws when the settings are not a JSON object.
    init(_ decoder: any Decoder) throws {
        top = try decoder.container(keyedBy: NamedCodingKey.self)
        font = try? top.nestedContainer(keyedBy: NamedCodingKey.self, forKey: NamedCodingKey("font"))
    }

    func value<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
        if key.hasPrefix("font.") {
            return (try? font?.decodeIfPresent(type, forKey: NamedCodingKey(String(key.dropFirst(5))))) ?? nil
        }
        return (try? top.decodeIfPresent(type, forKey: NamedCodingKey(key))) ?? nil
    }
}
