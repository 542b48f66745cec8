// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The colours of one row's name and text (issue 38): the name by the `name_colors` mode, every
/// colour moved (if it must be) to keep 4.5:1 against what lies behind the text: the outline
/// when there is one, else the row's bubble or pill, else the bar.
struct RowColors {
    var name: RGBColor
    /// The message (the theme's text colour, its alpha kept).
    var text: RGBA
    var gift: RGBColor
    var notice: RGBColor
    /// What the reader sees behind the text, which the colours are checked against.
    var backdrop: RGBColor

    init(line: ChatLine, style: TextStyle, viewers: ViewerColors?) {
        let look = style.look
        backdrop = look.backdrop
        if look.outline == 0, let pill = LineImage.pillTint(for: line) {
            backdrop = Contrast.over(pill.color, alpha: pill.alpha, on: backdrop)
        }
        let chosen: RGBColor
        switch look.nameColors {
        case .viewer:
            chosen = viewers?.color(for: line) ?? Palette.givenNameColor(for: line)
        case .platform:
            chosen = line.platformBadge?.color ?? viewers?.color(for: line) ?? Palette.givenNameColor(for: line)
        case .role:
            chosen = Palette.roleColor(for: line)
        }
        let backdrop = backdrop
        let light = Contrast.isLight(backdrop)
        func readable(_ color: RGBColor) -> RGBColor {
            // On a dark row a dark colour is lifted as before; then the contrast is checked either way.
            Contrast.readable(light ? color : Palette.readable(color), on: backdrop)
        }
        name = readable(chosen)
        let textColor = readable(style.textColor.rgb)
        text = RGBA(textColor, alpha: style.textColor.alpha)
        gift = readable(Palette.gift)
        notice = readable(Palette.notice)
    }
}

/// One colour per viewer on every row (issue 38): a viewer's rows keep the colour the platform or
/// the viewer memory gave them last, also on rows that came without one; a viewer never given
/// one keeps the colour picked by the name. Bounded: emptied when it holds `limit` viewers.
final class ViewerColors {
    static let limit = 4096

    /// A viewer: the platform (with several streams) and the login, else the name.
    private struct Viewer: Hashable {
        let platform: String?
        let name: String
    }

    private var known: [Viewer: RGBColor] = [:]

    /// The colour of the viewer who wrote `line`, as given (not yet made readable).
    func color(for line: ChatLine) -> RGBColor {
        let key = Viewer(platform: line.platform, name: line.login ?? line.user)
        if let given = line.color {
            if known[key] != given {
                if known.count >= Self.limit { known.removeAll() }
                known[key] = given
            }
            return given
        }
        return known[key] ?? Palette.givenNameColor(for: line)
    }
}
