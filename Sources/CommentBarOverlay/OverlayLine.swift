// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// One line on a helper's stdin (CModules/overlay/overlay-input.h): where the overlay goes and
/// how big it is, or that frame N was published (the helper then copies the newest frame from
/// the pool itself).
struct OverlayLine: Encodable, Equatable {
    var corner: String?
    var scale: Int?
    var opacity: Int?
    var margin: Int?
    var frame: UInt64?

    static func geometry(_ settings: BarSettings) -> OverlayLine {
        OverlayLine(corner: settings.overlayCorner.rawValue, scale: settings.overlayScale,
                    opacity: settings.overlayOpacity, margin: settings.overlayMargin)
    }

    static func published(_ sequence: UInt64) -> OverlayLine { OverlayLine(frame: sequence) }
}
