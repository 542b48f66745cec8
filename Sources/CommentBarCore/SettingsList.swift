// SPDX-License-Identifier: GPL-2.0-or-later
/// A list setting as it arrives: an array of strings, or OBS's editable-list form
/// `[{"value": "…", "selected": …, "hidden": …}]`. Bounded: at most `maxEntries`
/// entries of at most `maxEntryScalars` each; other items are skipped.
struct SettingsList: Codable, Sendable, Equatable {
    static let maxEntries = 20_000
    static let maxEntryScalars = 500

    var values: [String] = []

    init() {}

    private struct Item: Decodable {
        var value: String?
    }

    private enum Entry: Decodable {
        case text(String)
        case item(Item)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let item = try? container.decode(Item.self) {
                self = .item(item)
            } else {
                self = .other
            }
        }
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd, values.count < Self.maxEntries {
            let text: String?
            switch try container.decode(Entry.self) {
            case .text(let value): text = value
            case .item(let item): text = item.value
            case .other: text = nil
            }
            if let text, !text.isEmpty { values.append(String(text.unicodeScalars.prefix(Self.maxEntryScalars))) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
