// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Glibc

/// WCAG 2's contrast between two colours, and colours moved just enough to reach a contrast:
/// names and messages keep at least 4.5:1 against the row behind them, on dark and light themes.
enum Contrast {
    /// WCAG's minimum for normal text.
    static let minimum = 4.5

    /// Relative luminance (WCAG 2): linearised sRGB, weighted.
    static func luminance(_ color: RGBColor) -> Double {
        0.2126 * linear[Int(color.red)] + 0.7152 * linear[Int(color.green)] + 0.0722 * linear[Int(color.blue)]
    }

    /// Each 8-bit sRGB value linearised, computed once (rows are coloured as they are laid out).
    private static let linear: [Double] = (0...255).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// (L1 + 0.05) / (L2 + 0.05), the lighter over the darker: from 1 to 21.
    static func ratio(_ a: RGBColor, _ b: RGBColor) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Whether `background` is light: dark text reads better on it than light text.
    static func isLight(_ background: RGBColor) -> Bool {
        ratio(background, RGBColor(red: 0, green: 0, blue: 0)) > ratio(background, RGBColor(red: 255, green: 255, blue: 255))
    }

    /// `color`, or the least mix of it towards black or white (whichever the background wants)
    /// that has at least `minimum` contrast against `background`. Black or white always reach
    /// 4.5:1 on the side they are chosen for (the worst background, mid grey, still gives 4.58).
    static func readable(_ color: RGBColor, on background: RGBColor, minimum: Double = minimum) -> RGBColor {
        guard ratio(color, background) < minimum else { return color }
        let target: UInt8 = isLight(background) ? 0 : 255
        func mixed(_ t: Double) -> RGBColor {
            func channel(_ value: UInt8) -> UInt8 {
                UInt8((Double(value) + (Double(target) - Double(value)) * t).rounded())
            }
            return RGBColor(red: channel(color.red), green: channel(color.green), blue: channel(color.blue))
        }
        // The contrast grows with the mix: the least mix that is enough, to 1/256.
        var low = 0.0, high = 1.0
        for _ in 0..<9 {
            let middle = (low + high) / 2
            if ratio(mixed(middle), background) >= minimum { high = middle } else { low = middle }
        }
        return mixed(high)
    }

    /// `top` at `alpha` over `bottom` (the colour a reader sees where a tint lies on a row).
    static func over(_ top: RGBColor, alpha: Double, on bottom: RGBColor) -> RGBColor {
        func channel(_ t: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(t) * alpha + Double(b) * (1 - alpha)).rounded()) }
        return RGBColor(red: channel(top.red, bottom.red), green: channel(top.green, bottom.green),
                        blue: channel(top.blue, bottom.blue))
    }
}
