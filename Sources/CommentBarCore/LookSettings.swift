// SPDX-License-Identifier: GPL-2.0-or-later
/// The look's choices (issue 38), each a string enum row of the settings table: the raw values are
/// the table's choices, in its order (SettingsSchemaTests).
extension BarSettings {
    /// How the comments are laid out (`layout`).
    public enum Layout: String, Sendable, Codable, CaseIterable {
        /// The seeds' bar: the avatar's panel on the left, the header above the rows.
        case bar
        /// A chat box: rows stacked, each wrapping onto as many lines as it needs; the header and a
        /// small avatar only where their toggles say.
        case box
        /// One line: comments travel right to left, one after another.
        case ticker
    }

    /// Where the newest comment is (`newest`): rows stack from that edge.
    public enum NewestEdge: String, Sendable, Codable, CaseIterable {
        case bottom, top
    }

    /// How a row is drawn (`row_style`): on the bar, or each on a bubble of its own.
    public enum RowStyle: String, Sendable, Codable, CaseIterable {
        case plain, bubble
    }

    /// How a new row comes in (`enter`).
    public enum EnterAnimation: String, Sendable, Codable, CaseIterable {
        /// At once (named so that it never reads as an Optional's `.none`).
        case instant = "none"
        case slide, fade
    }

    /// Where a name's colour comes from (`name_colors`).
    public enum NameColors: String, Sendable, Codable, CaseIterable {
        /// The viewer's own (the platform's, the viewer memory's, else one picked by the name).
        case viewer
        /// The platform's colour, the one of its badge.
        case platform
        /// Owner, moderator, member or subscriber, VIP; everyone else one colour.
        case role
    }

    /// The font as OBS stores it (`font.face`, `font.style`, `font.size`, `font.flags`).
    public struct Font: Sendable, Equatable {
        public var face: String = SettingsSchema.string("font.face")
        public var style: String = SettingsSchema.string("font.style")
        public var size: Int = SettingsSchema.int("font.size")
        public var flags: Int = SettingsSchema.int("font.flags")
        public init() {}
        public var bold: Bool { flags & 1 != 0 }
        public var italic: Bool { flags & 2 != 0 }
    }
}
