// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore
import Glibc
import FoundationEssentials

/// The bar's icons, drawn as vectors so they are sharp at any size.
/// Each draws into the square (x, y, size, size).
enum Icons {
    static func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) {
        let r = min(r, w / 2, h / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// A person: head and shoulders.
    static func viewers(_ cr: OpaquePointer, x: Double, y: Double, size s: Double, color: RGBA) {
        color.setSource(cr)
        cairo_arc(cr, x + s * 0.5, y + s * 0.3, s * 0.2, 0, 2 * Double.pi)
        cairo_fill(cr)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + s * 0.5, y + s * 0.98, s * 0.38, Double.pi, 2 * Double.pi)
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    /// A wrapped present with a bow.
    static func gift(_ cr: OpaquePointer, x: Double, y: Double, size s: Double, color: RGBA) {
        color.setSource(cr)
        roundedRect(cr, x + s * 0.12, y + s * 0.42, s * 0.76, s * 0.5, s * 0.06)
        cairo_fill(cr)
        roundedRect(cr, x + s * 0.06, y + s * 0.28, s * 0.88, s * 0.16, s * 0.05)
        cairo_fill(cr)
        // Bow loops.
        cairo_set_line_width(cr, s * 0.08)
        cairo_arc(cr, x + s * 0.36, y + s * 0.2, s * 0.11, 0, 2 * Double.pi)
        cairo_stroke(cr)
        cairo_arc(cr, x + s * 0.64, y + s * 0.2, s * 0.11, 0, 2 * Double.pi)
        cairo_stroke(cr)
        // The ribbon is cut out of the box.
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_rectangle(cr, x + s * 0.46, y + s * 0.28, s * 0.08, s * 0.64)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// A push pin, leaning: the pinned comment's mark.
    static func pin(_ cr: OpaquePointer, x: Double, y: Double, size s: Double, color: RGBA) {
        cairo_save(cr)
        cairo_translate(cr, x + s / 2, y + s / 2)
        cairo_rotate(cr, Double.pi / 5)
        color.setSource(cr)
        // The head, its collar and the needle, from the top down.
        roundedRect(cr, -s * 0.2, -s * 0.46, s * 0.4, s * 0.12, s * 0.05)
        cairo_fill(cr)
        cairo_move_to(cr, -s * 0.12, -s * 0.34)
        cairo_line_to(cr, s * 0.12, -s * 0.34)
        cairo_line_to(cr, s * 0.16, -s * 0.02)
        cairo_line_to(cr, -s * 0.16, -s * 0.02)
        cairo_close_path(cr)
        cairo_fill(cr)
        roundedRect(cr, -s * 0.3, -s * 0.04, s * 0.6, s * 0.1, s * 0.04)
        cairo_fill(cr)
        cairo_set_line_width(cr, max(1, s * 0.07))
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_move_to(cr, 0, s * 0.06)
        cairo_line_to(cr, 0, s * 0.46)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// A microphone; when off, struck through.
    static func microphone(_ cr: OpaquePointer, x: Double, y: Double, size s: Double, on: Bool, color: RGBA,
                           offColor: RGBA) {
        (on ? color : offColor).setSource(cr)
        roundedRect(cr, x + s * 0.36, y + s * 0.06, s * 0.28, s * 0.5, s * 0.14)
        cairo_fill(cr)
        cairo_set_line_width(cr, s * 0.08)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_arc(cr, x + s * 0.5, y + s * 0.4, s * 0.26, 0, Double.pi)
        cairo_stroke(cr)
        cairo_move_to(cr, x + s * 0.5, y + s * 0.66)
        cairo_line_to(cr, x + s * 0.5, y + s * 0.84)
        cairo_move_to(cr, x + s * 0.34, y + s * 0.88)
        cairo_line_to(cr, x + s * 0.66, y + s * 0.88)
        cairo_stroke(cr)
        if !on {
            cairo_set_line_width(cr, s * 0.1)
            cairo_move_to(cr, x + s * 0.16, y + s * 0.1)
            cairo_line_to(cr, x + s * 0.84, y + s * 0.9)
            cairo_stroke(cr)
        }
    }

    /// A platform's small mark before a row's name when the bar reads several streams:
    /// its colour in a rounded square with a simple white sign (no logos, no network). The
    /// badge comes from the service's description (the renderer knows no platform).
    static func platform(_ cr: OpaquePointer, _ badge: PlatformBadge, x: Double, y: Double, size s: Double) {
        RGBA(badge.color).setSource(cr)
        roundedRect(cr, x, y, s, s, s * 0.22)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        switch badge.sign {
        case .play:
            cairo_move_to(cr, x + s * 0.38, y + s * 0.28)
            cairo_line_to(cr, x + s * 0.72, y + s * 0.5)
            cairo_line_to(cr, x + s * 0.38, y + s * 0.72)
            cairo_close_path(cr)
            cairo_fill(cr)
        case .bubble:
            cairo_rectangle(cr, x + s * 0.4, y + s * 0.3, s * 0.08, s * 0.22)
            cairo_rectangle(cr, x + s * 0.58, y + s * 0.3, s * 0.08, s * 0.22)
            cairo_fill(cr)
        case .screen:
            cairo_set_line_width(cr, s * 0.09)
            roundedRect(cr, x + s * 0.22, y + s * 0.3, s * 0.56, s * 0.42, s * 0.08)
            cairo_stroke(cr)
        case .ring:
            cairo_set_line_width(cr, s * 0.11)
            cairo_arc(cr, x + s * 0.5, y + s * 0.5, s * 0.22, 0, 2 * Double.pi)
            cairo_stroke(cr)
        case .dot:
            cairo_arc(cr, x + s * 0.5, y + s * 0.5, s * 0.16, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
    }

    /// A chat badge as a small built-in icon (no network): its colour and a white sign.
    static func badge(_ cr: OpaquePointer, _ badge: RowText.Badge, x: Double, y: Double, size s: Double) {
        let color: String
        switch badge {
        case .broadcaster: color = "#e53935"
        case .moderator: color = "#00ad03"
        case .vip: color = "#e005b9"
        case .subscriber: color = "#8e24aa"
        case .founder: color = "#f9a825"
        case .verified: color = "#7e57c2"
        case .member: color = "#2e7d32"
        }
        RGBA(hex: color).setSource(cr)
        roundedRect(cr, x, y, s, s, s * 0.22)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        let cx = x + s / 2, cy = y + s / 2
        switch badge {
        case .broadcaster:
            // A camera: body and lens.
            roundedRect(cr, x + s * 0.18, y + s * 0.32, s * 0.44, s * 0.36, s * 0.06)
            cairo_fill(cr)
            cairo_move_to(cr, x + s * 0.64, cy)
            cairo_line_to(cr, x + s * 0.84, y + s * 0.32)
            cairo_line_to(cr, x + s * 0.84, y + s * 0.68)
            cairo_close_path(cr)
            cairo_fill(cr)
        case .moderator:
            // A sword, as Twitch draws moderators.
            cairo_set_line_width(cr, s * 0.12)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, x + s * 0.28, y + s * 0.72)
            cairo_line_to(cr, x + s * 0.74, y + s * 0.26)
            cairo_move_to(cr, x + s * 0.24, y + s * 0.5)
            cairo_line_to(cr, x + s * 0.5, y + s * 0.76)
            cairo_stroke(cr)
        case .vip:
            cairo_move_to(cr, cx, y + s * 0.22)
            cairo_line_to(cr, x + s * 0.8, cy)
            cairo_line_to(cr, cx, y + s * 0.78)
            cairo_line_to(cr, x + s * 0.2, cy)
            cairo_close_path(cr)
            cairo_fill(cr)
        case .subscriber, .founder:
            star(cr, cx: cx, cy: cy + s * 0.03, radius: s * 0.32)
            cairo_fill(cr)
        case .verified:
            cairo_set_line_width(cr, s * 0.12)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, x + s * 0.26, cy)
            cairo_line_to(cr, x + s * 0.44, y + s * 0.68)
            cairo_line_to(cr, x + s * 0.76, y + s * 0.32)
            cairo_stroke(cr)
        case .member:
            cairo_arc(cr, cx, cy, s * 0.26, 0, 2 * Double.pi)
            cairo_set_line_width(cr, s * 0.1)
            cairo_stroke(cr)
            star(cr, cx: cx, cy: cy, radius: s * 0.14)
            cairo_fill(cr)
        }
    }

    /// A five-pointed star path.
    static func star(_ cr: OpaquePointer, cx: Double, cy: Double, radius: Double) {
        for point in 0..<10 {
            let angle = -Double.pi / 2 + Double(point) * Double.pi / 5
            let r = point % 2 == 0 ? radius : radius * 0.45
            let px = cx + r * cos(angle), py = cy + r * sin(angle)
            if point == 0 { cairo_move_to(cr, px, py) } else { cairo_line_to(cr, px, py) }
        }
        cairo_close_path(cr)
    }

    /// A mic level meter: `steps` small bars, the first `level` lit (green, then amber, then red).
    static func levelMeter(_ cr: OpaquePointer, rect: PixelRect, level: Int, steps: Int) {
        guard rect.width > 0, rect.height > 0, steps > 0 else { return }
        let gap = max(1, Double(rect.width) / Double(steps) * 0.25)
        let bar = (Double(rect.width) - gap * Double(steps - 1)) / Double(steps)
        for index in 0..<steps {
            let lit = index < level
            let fraction = Double(index) / Double(steps)
            let color = fraction < 0.6 ? RGBA(0.30, 0.78, 0.45) : fraction < 0.85 ? RGBA(1.0, 0.72, 0.30) : RGBA(0.94, 0.33, 0.31)
            color.with(alpha: lit ? 1 : 0.22).setSource(cr)
            cairo_rectangle(cr, Double(rect.x) + Double(index) * (bar + gap), Double(rect.y), bar, Double(rect.height))
            cairo_fill(cr)
        }
    }

    /// The default avatar when none is set: a friendly round character.
    static func defaultAvatar(_ cr: OpaquePointer, centerX cx: Double, centerY cy: Double, radius r: Double) {
        let face = cairo_pattern_create_radial(cx - r * 0.3, cy - r * 0.4, r * 0.1, cx, cy, r)
        cairo_pattern_add_color_stop_rgb(face, 0, 1.0, 0.93, 0.86)
        cairo_pattern_add_color_stop_rgb(face, 1, 0.98, 0.78, 0.70)
        cairo_set_source(cr, face)
        cairo_arc(cr, cx, cy, r, 0, 2 * Double.pi)
        cairo_fill(cr)
        cairo_pattern_destroy(face)
        // Hair: a soft cap over the top.
        cairo_set_source_rgb(cr, 0.42, 0.30, 0.52)
        cairo_arc(cr, cx, cy, r, Double.pi * 1.02, Double.pi * 1.98)
        cairo_curve_to(cr, cx + r * 0.6, cy - r * 0.35, cx - r * 0.1, cy - r * 0.55, cx - r * 0.98, cy - r * 0.05)
        cairo_fill(cr)
        // Eyes and a smile.
        cairo_set_source_rgb(cr, 0.2, 0.15, 0.25)
        for side in [-1.0, 1.0] {
            cairo_save(cr)
            cairo_translate(cr, cx + side * r * 0.34, cy + r * 0.12)
            cairo_scale(cr, 1, 1.35)
            cairo_arc(cr, 0, 0, r * 0.09, 0, 2 * Double.pi)
            cairo_restore(cr)
            cairo_fill(cr)
        }
        cairo_set_source_rgba(cr, 1.0, 0.45, 0.5, 0.45)
        for side in [-1.0, 1.0] {
            cairo_arc(cr, cx + side * r * 0.56, cy + r * 0.38, r * 0.12, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        cairo_set_source_rgb(cr, 0.2, 0.15, 0.25)
        cairo_set_line_width(cr, r * 0.07)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_arc(cr, cx, cy + r * 0.3, r * 0.2, Double.pi * 0.2, Double.pi * 0.8)
        cairo_stroke(cr)
    }

    /// The default avatar background: a soft diagonal gradient.
    static func defaultBackground(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        let gradient = cairo_pattern_create_linear(x, y, x + width, y + height)
        cairo_pattern_add_color_stop_rgb(gradient, 0, 0.36, 0.55, 0.98)
        cairo_pattern_add_color_stop_rgb(gradient, 1, 0.85, 0.45, 0.85)
        cairo_set_source(cr, gradient)
        cairo_rectangle(cr, x, y, width, height)
        cairo_fill(cr)
        cairo_pattern_destroy(gradient)
        // A few soft sparkles.
        cairo_set_source_rgba(cr, 1, 1, 1, 0.25)
        for (fx, fy, fr) in [(0.18, 0.2, 0.05), (0.82, 0.16, 0.035), (0.75, 0.82, 0.06), (0.15, 0.86, 0.03)] {
            cairo_arc(cr, x + width * fx, y + height * fy, min(width, height) * fr, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
    }
}
