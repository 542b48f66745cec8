// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSettings

/// The `theme` setting (issue 38): a built-in theme's name or the path of a theme file, each a
/// set of look settings (`LookKey`). A theme fills in the look: any look setting the streamer
/// changed from its default wins over it (`BarSettings.applyLook`).
public enum Theme {
    /// The built-in themes, in the order the properties list them (the settings table's list).
    public static let builtinNames: [String] = CB_BUILTIN_THEMES.split(separator: "|").map(String.init)

    /// The default look: the seeds' dark rounded panel, the table's defaults.
    public static let defaultName = "mirrativ"

    /// A built-in theme's values; nil for any other name.
    public static func builtin(_ name: String) -> [String: LookValue]? {
        switch name {
        case "mirrativ":
            return [:]
        case "light":
            // A light panel for bright scenes: dark text, names darkened to keep their contrast.
            return ["bg_color": color("#F6F6F9"), "bg_opacity": .int(94), "text_color": color("#1B1B22"),
                    "corner_radius": .int(16)]
        case "box-outline":
            // A transparent chat box over gameplay: outlined text, nothing else drawn.
            return ["layout": .text("box"), "bg_opacity": .int(0), "text_outline": .int(3), "text_shadow": .bool(true),
                    "outline_color": color("#000000"), "max_lines": .int(30), "corner_radius": .int(0),
                    "show_avatar": .bool(false), "show_clock": .bool(false), "show_viewers": .bool(false),
                    "show_gifts": .bool(false), "show_mic": .bool(false)]
        case "ticker":
            // One line under a camera: the clock and viewers at its left end, comments travelling.
            return ["layout": .text("ticker"), "bg_opacity": .int(88), "corner_radius": .int(10),
                    "show_avatar": .bool(false), "show_gifts": .bool(false)]
        default:
            return nil
        }
    }

    /// What `theme` names.
    public enum Choice: Sendable, Equatable {
        /// A built-in theme's look (empty: the default).
        case look([String: LookValue])
        /// A theme file's path: read outside Core, which opens no file (`ThemeFiles` in serve).
        case file(String)
        case problem(ThemeProblem)
    }

    /// What `theme` names: a built-in theme, a theme file, or neither.
    public static func choice(_ theme: String) -> Choice {
        let name = theme.trimmingWhitespace()
        if name.isEmpty { return .look([:]) }
        if let values = builtin(name) { return .look(values) }
        guard name.contains("/") || name.hasSuffix(".json") else {
            return .problem(ThemeProblem(source: String(name.prefix(80)), message: "no such built-in theme (they are "
                                         + builtinNames.joined(separator: ", ") + ") and not a theme file's path"))
        }
        return .file(name)
    }

    private static func color(_ hex: String) -> LookValue { .int(Int(LookColor.abgr(hex: hex) ?? 0xFF00_0000)) }
}

extension BarSettings {
    /// The theme's look applied under what the source's own settings changed, or what is wrong
    /// with it said (`themeProblem`, and a line for the log); the theme file, if one waited, is read.
    public mutating func applyTheme(_ result: Result<[String: LookValue], ThemeProblem>) {
        themeFile = nil
        switch result {
        case .success(let look): applyLook(look)
        case .failure(let problem):
            themeProblem = problem.description
            unknownChoices.append("theme: \(problem)")
        }
        self = clamped()
    }

    /// A `userInfo` key of the decoder: a theme used instead of the settings' own `theme`.
    static let themeOverride = CodingUserInfoKey(rawValue: "commentbar.theme")
}
