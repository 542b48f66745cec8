// SPDX-License-Identifier: GPL-2.0-or-later
/// A platform's small mark before a row's name when the bar reads several streams: its
/// brand colour in a rounded square with a simple white sign (no logos, nothing fetched).
/// Each service's `ServiceDescription` carries its own; the renderer draws what it is given
/// and knows no platform.
public struct PlatformBadge: Sendable, Hashable {
    /// The white sign drawn on the colour.
    public enum Sign: String, Sendable, CaseIterable {
        /// A play triangle.
        case play
        /// Two bars, as in a speech bubble.
        case bubble
        /// The outline of a screen.
        case screen
        /// A ring.
        case ring
        /// A dot.
        case dot
    }

    public var color: RGBColor
    public var sign: Sign

    public init(color: RGBColor, sign: Sign) {
        self.color = color
        self.sign = sign
    }

    /// `rgb` as 0xRRGGBB, as brand colours are written.
    public init(rgb: UInt32, sign: Sign) {
        self.init(color: RGBColor(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF),
                                  blue: UInt8(rgb & 0xFF)), sign: sign)
    }

    /// No brand: grey with a dot. The local replays' and the generic protocols' mark, and
    /// that of a stream list's entry that could not be read.
    public static let plain = PlatformBadge(rgb: 0x78909C, sign: .dot)
}
