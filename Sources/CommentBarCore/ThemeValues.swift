// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings
import FoundationEssentials

extension AnyJSON {
    /// How a message shows the value: short, quoted when text.
    var shown: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .double(let value): return "\(value)"
        case .string(let text):
            let cut = String(text.unicodeScalars.prefix(40))
            return "\"" + TextSanitizer.clean(cut, limit: 40) + (cut.count < text.count ? "…" : "") + "\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

extension LookKey {
    /// The value `json` gives this key, or what is wrong with it (for a message that names the key).
    func value(from json: AnyJSON) -> Result<LookValue, ThemeProblem.Reason> {
        guard let row else { return .failure(.unknownKey) }
        switch row.type {
        case CB_SETTING_BOOL:
            if case .bool(let value) = json { return .success(.bool(value)) }
            return .failure(.wrongType(expected: "true or false", got: json.shown))
        case CB_SETTING_INT:
            let range = Int(row.min)...Int(row.max)
            let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
            guard case .integer(let number) = json else { return .failure(.wrongType(expected: expected, got: json.shown)) }
            guard range.contains(number) else {
                return .failure(.outOfRange(value: json.shown, range: "\(range.lowerBound) to \(range.upperBound)"))
            }
            return .success(.int(number))
        case CB_SETTING_COLOR:
            switch json {
            case .integer(let number) where (0...Int(UInt32.max)).contains(number):
                return .success(.int(number))
            case .integer:
                return .failure(.outOfRange(value: json.shown, range: "0 to 4294967295 (0xAABBGGRR)"))
            case .string(let text):
                if let color = LookColor.abgr(hex: text) { return .success(.int(Int(color))) }
                fallthrough
            default:
                return .failure(.wrongType(expected: "a colour, \"#RRGGBB\" or \"#RRGGBBAA\"", got: json.shown))
            }
        default:
            let choices = SettingsSchema.choices(key)
            guard case .string(let text) = json else {
                let expected = choices.isEmpty ? "a name" : "one of " + choices.joined(separator: ", ")
                return .failure(.wrongType(expected: expected, got: json.shown))
            }
            if !choices.isEmpty, !choices.contains(text) {
                return .failure(.unknownChoice(value: json.shown, choices: choices.joined(separator: ", ")))
            }
            if choices.isEmpty, text.trimmingWhitespace().isEmpty || text.unicodeScalars.count > 200 {
                return .failure(.wrongType(expected: "a name of 1 to 200 characters", got: json.shown))
            }
            return .success(.text(text))
        }
    }

    /// The value as a theme file writes it: colours as "#RRGGBB" (or "#RRGGBBAA" when not opaque).
    func json(_ value: LookValue) -> ThemeOutput {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .text(let text): return .string(text)
        case .int(let number):
            return row?.type == CB_SETTING_COLOR ? .string(LookColor.hex(abgr: UInt32(truncatingIfNeeded: number)))
                                                 : .int(number)
        }
    }
}

/// A theme file's value as written out (JSONEncoder, sorted keys).
enum ThemeOutput: Encodable {
    case bool(Bool)
    case int(Int)
    case string(String)
    case object([String: ThemeOutput])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// Colours written as people write them, and OBS's 0xAABBGGRR integers.
enum LookColor {
    /// `#RRGGBB` (opaque) or `#RRGGBBAA` as OBS's 0xAABBGGRR; nil for anything else.
    static func abgr(hex text: String) -> UInt32? {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        let red = rgba >> 24, green = (rgba >> 16) & 0xFF, blue = (rgba >> 8) & 0xFF, alpha = rgba & 0xFF
        return alpha << 24 | blue << 16 | green << 8 | red
    }

    static func hex(abgr value: UInt32) -> String {
        let color = RGBColor(obsABGR: value)
        let alpha = value >> 24
        guard alpha != 0xFF else { return color.hex }
        let digits = String(alpha, radix: 16)
        return color.hex + String(repeating: "0", count: 2 - digits.count) + digits
    }
}
