// SPDX-License-Identifier: GPL-2.0-or-later

/// A JSON object's key by its name, for objects whose keys are data (a setting's key, an action's
/// argument, a secret's `_saved` flag) rather than a type's fixed fields.
public struct NamedCodingKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
