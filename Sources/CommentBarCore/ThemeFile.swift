// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// What is wrong with a theme, named with its file (or name) and the key: the status line, the
/// OBS log and `commentbar render`'s exit code say it, and the look stays as it was.
public struct ThemeProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Error, Sendable, Equatable {
        case unknownKey
        /// A setting of the table, but not one of how the bar looks.
        case notALookKey
        case wrongType(expected: String, got: String)
        case outOfRange(value: String, range: String)
        case unknownChoice(value: String, choices: String)

        var text: String {
            switch self {
            case .unknownKey: return "unknown key"
            case .notALookKey: return "not a look setting (a theme holds only how the bar looks)"
            case .wrongType(let expected, let got): return "expected \(expected), got \(got)"
            case .outOfRange(let value, let range): return "\(value) is out of range (\(range))"
            case .unknownChoice(let value, let choices): return "unknown value \(value) (it may be \(choices))"
            }
        }
    }

    /// The theme file's path, or the theme's name.
    public var source: String
    /// The key at fault; nil when the whole file is (unreadable, not JSON).
    public var key: String?
    public var message: String

    public init(source: String, key: String? = nil, message: String) {
        self.source = source
        self.key = key
        self.message = message
    }

    public var description: String {
        key.map { "\(source): key \"\($0)\": \(message)" } ?? "\(source): \(message)"
    }
}

/// Theme files: a JSON object of look settings (`LookKey`), the table's keys and the font as OBS
/// stores it (`"font": {"face": …, "size": …}`), colours as `"#RRGGBB"` or OBS's integers. Read
/// outside Core (`ThemeFiles` in serve, within bounds); here their bytes are parsed and a look is
/// written as their text.
public enum ThemeFile {
    public static let maxBytes = 64 * 1024

    /// The look a theme file's bytes hold (`source`: its path, for the messages), or the first
    /// thing wrong with it (and how many more there are).
    public static func parse(bytes: [UInt8], source: String) -> Result<[String: LookValue], ThemeProblem> {
        guard let json = try? JSONDecoder().decode(AnyJSON.self, from: Data(bytes)) else {
            return .failure(ThemeProblem(source: source, message: "not JSON (a theme file is a JSON object of look settings)"))
        }
        return parse(json, source: source)
    }

    /// The look a decoded theme object holds; every key checked, the first problem reported.
    static func parse(_ json: AnyJSON, source: String) -> Result<[String: LookValue], ThemeProblem> {
        guard case .object(let object) = json else {
            return .failure(ThemeProblem(source: source, message: "not a JSON object of look settings, but \(json.shown)"))
        }
        var entries: [(key: String, value: AnyJSON)] = []
        for (key, value) in object {
            if key == "font", case .object(let font) = value {
                entries += font.map { ("font.\($0.key)", $0.value) }
            } else {
                entries.append((key, value))
            }
        }
        var values: [String: LookValue] = [:]
        var problems: [ThemeProblem] = []
        for (key, json) in entries.sorted(by: { $0.key < $1.key }) {
            let result: Result<LookValue, ThemeProblem.Reason>
            if let lookKey = LookKey.named(key) {
                result = lookKey.value(from: json)
            } else {
                result = .failure(SettingsSchema.isKey(key) ? .notALookKey : .unknownKey)
            }
            switch result {
            case .success(let value): values[key] = value
            case .failure(let reason):
                problems.append(ThemeProblem(source: source, key: String(key.unicodeScalars.prefix(60)), message: reason.text))
            }
        }
        guard var first = problems.first else { return .success(values) }
        if problems.count > 1 { first.message += " (and \(problems.count - 1) more)" }
        return .failure(first)
    }

    /// The look of `settings` as a theme file's text: every look key, sorted, the font nested as
    /// OBS stores it. What `commentbar theme export` prints and a saved look file holds.
    public static func text(of settings: BarSettings) -> String {
        var object: [String: ThemeOutput] = [:]
        var font: [String: ThemeOutput] = [:]
        for key in LookKey.all {
            let value = key.json(key.get(settings))
            if key.key.hasPrefix("font.") { font[String(key.key.dropFirst(5))] = value } else { object[key.key] = value }
        }
        object["font"] = .object(font)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}
