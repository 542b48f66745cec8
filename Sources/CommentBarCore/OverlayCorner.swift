// SPDX-License-Identifier: GPL-2.0-or-later
/// The corner of the monitor the overlay sits in (`overlay_corner`).
public enum OverlayCorner: String, Codable, Sendable, CaseIterable {
    case topLeft = "top_left"
    case topRight = "top_right"
    case bottomLeft = "bottom_left"
    case bottomRight = "bottom_right"
}
