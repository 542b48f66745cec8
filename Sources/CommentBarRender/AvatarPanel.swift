// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo

/// The avatar panel's pixels, drawn once into an image of the panel's size and copied into the
/// stable layer whenever that is drawn again: its default gradients and scaled pictures cost more
/// than the rest of the layer together (pixman composites gradients row by row), yet they change
/// only with what `Key` holds, never with the counters, the status or the mic.
///
/// The image holds exactly what the layer has in the panel's rectangle before the mic badge: the
/// bar's background under it (its rounded corner may reach into the rectangle), the panel's
/// picture or default gradient clipped to its rounded rectangle, the white ring and the avatar.
/// They are drawn at the same coordinates as in the layer (moved by whole pixels), so the copy
/// gives the very pixels drawing them into the layer would.
final class AvatarPanel {
    /// What the panel's pixels depend on.
    struct Key: Equatable {
        var panel: PixelRect
        /// The panel's own corners (the layout's padding).
        var panelRadius: Double
        /// The bar's background: its size, corners and colour (with its opacity).
        var barWidth: Int
        var barHeight: Int
        var barRadius: Double
        var barColor: RGBA
        /// The decoded pictures (nil: the default gradient, the default avatar). Compared by
        /// identity: the image cache hands out one object per decoded picture, and the key holds
        /// it, so a new picture is never mistaken for the one it replaced.
        var background: ImageSurface?
        var avatar: ImageSurface?

        static func == (a: Key, b: Key) -> Bool {
            a.panel == b.panel && a.panelRadius == b.panelRadius && a.barWidth == b.barWidth
                && a.barHeight == b.barHeight && a.barRadius == b.barRadius && a.barColor == b.barColor
                && a.background === b.background && a.avatar === b.avatar
        }
    }

    private var key: Key?
    private var image: ImageSurface?
    /// How many times the panel was drawn (not copied), for tests and benchmarks.
    private(set) var draws = 0

    /// Copies the panel for `key` into `cr` (the stable layer's context, nothing clipped),
    /// drawing it first if its inputs changed.
    func copy(_ key: Key, into cr: OpaquePointer) {
        let image = self.image(for: key)
        let panel = key.panel
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, image.surface, Double(panel.x), Double(panel.y))
        cairo_rectangle(cr, Double(panel.x), Double(panel.y), Double(panel.width), Double(panel.height))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    private func image(for key: Key) -> ImageSurface {
        if let image, self.key == key { return image }
        let image = ImageSurface(width: key.panel.width, height: key.panel.height)
        image.withContext { cr in
            cairo_translate(cr, -Double(key.panel.x), -Double(key.panel.y))
            key.barColor.setSource(cr)
            Icons.roundedRect(cr, 0, 0, Double(key.barWidth), Double(key.barHeight), key.barRadius)
            cairo_fill(cr)
            Self.draw(key, on: cr)
        }
        self.key = key
        self.image = image
        draws += 1
        return image
    }

    /// The panel's picture (or default gradient) in its rounded rectangle, the ring and the avatar.
    static func draw(_ key: Key, on cr: OpaquePointer) {
        let panel = key.panel
        let x = Double(panel.x), y = Double(panel.y), w = Double(panel.width), h = Double(panel.height)
        cairo_save(cr)
        Icons.roundedRect(cr, x, y, w, h, key.panelRadius)
        cairo_clip(cr)
        if let background = key.background {
            StableLayer.paintCover(cr, background, x: x, y: y, width: w, height: h)
        } else {
            Icons.defaultBackground(cr, x: x, y: y, width: w, height: h)
        }
        cairo_restore(cr)

        let avatarRadius = StableLayer.avatarRadius(panel)
        let cx = x + w / 2, cy = y + h / 2
        // A white ring sets the avatar off its background.
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_arc(cr, cx, cy, avatarRadius + max(2, avatarRadius * 0.06), 0, 2 * Double.pi)
        cairo_fill(cr)
        if let avatar = key.avatar {
            cairo_save(cr)
            cairo_arc(cr, cx, cy, avatarRadius, 0, 2 * Double.pi)
            cairo_clip(cr)
            StableLayer.paintCover(cr, avatar, x: cx - avatarRadius, y: cy - avatarRadius,
                                   width: avatarRadius * 2, height: avatarRadius * 2)
            cairo_restore(cr)
        } else {
            Icons.defaultAvatar(cr, centerX: cx, centerY: cy, radius: avatarRadius)
        }
    }
}
