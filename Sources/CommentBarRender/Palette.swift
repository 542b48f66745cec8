// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Colours that read well on the bar.
enum Palette {
    static let live = RGBA(hex: "#e53935")
    static let connecting = RGBA(hex: "#607d8b")
    static let reconnecting = RGBA(hex: "#fb8c00")
    static let error = RGBA(hex: "#c62828")
    static let warning = RGBA(hex: "#ffb74d")
    static let gift = RGBColor(red: 0xFF, green: 0xD5, blue: 0x4F)
    static let notice = RGBColor(red: 0xB3, green: 0x9D, blue: 0xDB)
    static let micOff = RGBA(hex: "#ef5350")
    static let micOn = RGBA(0.18, 0.74, 0.42)
    static let offAir = RGBA(hex: "#9e9e9e")
    static let chatLive = RGBA(hex: "#66bb6a")

    /// The mic badge's fill: green on, red muted, grey when there is no mic or nothing is known.
    static func micBadge(_ state: MicState) -> RGBA {
        switch state {
        case .on: return micOn
        case .muted: return micOff
        case .none: return RGBA(hex: "#616161")
        case .unknown: return RGBA(hex: "#78909c")
        }
    }

    /// Names without a colour of their own get one of these, the same for the same name.
    private static let names: [RGBColor] = [
        "#ff7eb6", "#4fc3f7", "#9ccc65", "#ffb74d", "#ce93d8", "#80cbc4", "#64b5f6", "#ffd54f", "#aed581", "#f48fb1",
    ].compactMap { RGBColor(hex: $0) }

    /// The row's own colour (the platform's or the viewer memory's), else one picked by the name;
    /// not yet made readable (`RowColors` does, against the row's background).
    static func givenNameColor(for line: ChatLine) -> RGBColor {
        if let color = line.color { return color }
        // FNV-1a: stable across runs, unlike Hasher.
        var hash: UInt32 = 2_166_136_261
        for byte in (line.login ?? line.user).utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return names[Int(hash % UInt32(names.count))]
    }

    /// `name_colors` role: the owner, moderators, VIPs, members and subscribers in their badges'
    /// hues (lighter, for names on a dark bar); everyone else one quiet colour.
    static func roleColor(for line: ChatLine) -> RGBColor {
        let badges = Set(line.badges.compactMap(RowText.Badge.init(feedBadge:)))
        let hex: String
        if badges.contains(.broadcaster) {
            hex = "#ff6b63"
        } else if badges.contains(.moderator) {
            hex = "#4cd964"
        } else if badges.contains(.vip) {
            hex = "#ff70dc"
        } else if !badges.isDisjoint(with: [.member, .subscriber, .founder]) {
            hex = "#b794ff"
        } else {
            hex = "#cfd8dc"
        }
        return RGBColor(hex: hex) ?? RGBColor(red: 0xCF, green: 0xD8, blue: 0xDC)
    }

    /// Lightens colours too dark to read on a dark bar (a chat's #0000ff names, say).
    static func readable(_ color: RGBColor) -> RGBColor {
        let luminance = (0.2126 * Double(color.red) + 0.7152 * Double(color.green) + 0.0722 * Double(color.blue)) / 255
        guard luminance < 0.45 else { return color }
        let mix = min(1, (0.45 - luminance) / (1 - luminance) * 1.4)
        func lift(_ value: UInt8) -> UInt8 { UInt8(min(255, Double(value) + (255 - Double(value)) * mix)) }
        return RGBColor(red: lift(color.red), green: lift(color.green), blue: lift(color.blue))
    }
}
