// SPDX-License-Identifier: GPL-2.0-or-later
extension BarSettings: Encodable {
    /// The settings object as the shim sends it (what `commentbar overlay` hands its session):
    /// every field of `SettingField.all` by its key, the font nested as OBS stores it, lists as
    /// their texts. Never the secrets: `credentials` is no field.
    public func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: NamedCodingKey.self)
        var font = top.nestedContainer(keyedBy: NamedCodingKey.self, forKey: NamedCodingKey("font"))
        for field in SettingField.all {
            let inFont = field.key.hasPrefix("font.")
            let key = NamedCodingKey(inFont ? String(field.key.dropFirst(5)) : field.key)
            func put<T: Encodable>(_ value: T) throws {
                if inFont { try font.encode(value, forKey: key) } else { try top.encode(value, forKey: key) }
            }
            switch field.value(in: self) {
            case .bool(let value)?: try put(value)
            case .int(let value)?: try put(value)
            case .text(let value)?: try put(value)
            case nil: try put(field.entries?(self) ?? [])
            }
        }
    }
}
