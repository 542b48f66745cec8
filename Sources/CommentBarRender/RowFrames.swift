// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore
import CommentBarFrames

/// A comment row as placed in a frame: its image and its top edge.
struct PlacedRow {
    let image: LineImage
    let y: Int
}

/// The comment rows' geometry and pixels in a frame built on the last one: where the rows are
/// (stacked from the newest edge, bottom or top), how they scroll, and drawing them as they enter
/// and fade. Pure functions of what they are given: the renderer passes its state in (its own
/// properties stay private to it, so the compiler checks their accesses once, not every frame).
enum RowFrames {
    /// The comment area and the edge its newest row is at.
    struct Area {
        let rect: PixelRect
        let fromTop: Bool
    }

    /// Where `placed` are drawn: from the newest edge of the area to the oldest row, as wide as the
    /// widest row (its animated emotes included).
    static func bounds(_ placed: [PlacedRow], in area: Area) -> PixelRect {
        let rect = area.rect
        let right = placed.map { row in
            row.image.animated.reduce(row.image.image.width) { max($0, $1.rect.maxX) }
        }.max() ?? 0
        if area.fromTop {
            let bottom = placed.map { $0.y + $0.image.height }.max() ?? rect.y
            return PixelRect(x: rect.x, y: rect.y, width: right, height: bottom - rect.y).intersection(rect)
        }
        guard let top = placed.last?.y else { return PixelRect(x: rect.x, y: rect.maxY, width: 0, height: 0) }
        return PixelRect(x: rect.x, y: top, width: right, height: rect.maxY - top).intersection(rect)
    }

    /// The part of the area that holds both `rows` and `other` (each as `bounds` gives them: from
    /// the area's left edge and its newest edge).
    static func spanning(_ rows: PixelRect, _ other: PixelRect, in area: PixelRect) -> PixelRect {
        let top = min(rows.y, other.y), bottom = max(rows.maxY, other.maxY)
        return PixelRect(x: area.x, y: top, width: max(rows.maxX, other.maxX) - area.x, height: bottom - top)
            .intersection(area)
    }

    /// How to get from the last frame's rows to these by scrolling: the rows kept must be the same
    /// images, all moved away from the newest edge by one distance, with only new rows on that side
    /// of them. Nil when the frame must be composed instead (`scrolls`: whether the stable layer is
    /// the same under every row of the area).
    static func scrollPlan(from previous: [PlacedRow], to placed: [PlacedRow], in area: Area,
                           scrolls: Bool) -> ScrollPlan? {
        let rect = area.rect
        guard scrolls, placed.allSatisfy({ $0.y >= rect.y }) else { return nil }
        guard let firstKept = previous.first,
              let newRows = placed.firstIndex(where: { $0.image === firstKept.image })
        else {
            // Nothing kept: only possible without a scroll if both are empty.
            return previous.isEmpty && placed.isEmpty ? ScrollPlan(shift: 0, copied: 0..<0, newRows: 0) : nil
        }
        // Bottom: rows move up (a row's pixels come from `distance` below); top: down.
        let distance = area.fromTop ? placed[newRows].y - firstKept.y : firstKept.y - placed[newRows].y
        guard distance >= 0 else { return nil }
        for (offset, row) in placed[newRows...].enumerated() {
            guard offset < previous.count, previous[offset].image === row.image,
                  previous[offset].y + (area.fromTop ? distance : -distance) == row.y else { return nil }
        }
        if area.fromTop {
            let keptStart = placed[newRows].y
            let keptEnd = min(rect.maxY, (placed.last.map { $0.y + $0.image.height }) ?? keptStart)
            return ScrollPlan(shift: -distance, copied: keptStart..<max(keptStart, keptEnd), newRows: newRows)
        }
        let keptTop = placed.last?.y ?? rect.maxY
        return ScrollPlan(shift: distance, copied: keptTop..<max(keptTop, rect.maxY - distance), newRows: newRows)
    }

    /// The comment rows moved by `shift` (a row's pixels come from `shift` rows further down in the
    /// last frame), for the rows `copied`; the others of the area are the stable layer's, with
    /// `newRows` new rows drawn over them.
    struct ScrollPlan {
        let shift: Int
        let copied: Range<Int>
        let newRows: Int

        var moves: Bool { shift != 0 || newRows != 0 }
    }

    /// Copies from the last frame into `frame` the rectangles `missing`, except `skipped`; returns
    /// the bytes copied.
    static func catchUp(_ frame: FrameBuffer, missing: Set<PixelRect>, from base: FrameBuffer,
                        except skipped: PixelRect?) -> Int {
        var bytes = 0
        for rect in missing {
            for part in skipped.map(rect.subtracting) ?? [rect] {
                copyRows(from: base.pixels, sourceStride: base.stride, to: frame.pixels,
                         destinationStride: frame.stride, rect: part)
                bytes += part.width * part.height * 4
            }
        }
        return bytes
    }

    /// Writes `rect` of the area from the last frame's rows moved as `plan` says; the rest comes
    /// from the stable layer. Returns the rows and bytes written.
    static func scrollArea(_ frame: FrameBuffer, base: FrameBuffer, stable: UnsafeMutableRawPointer, stableStride: Int,
                           plan: ScrollPlan, in rect: PixelRect, area: PixelRect) -> (rows: Int, bytes: Int) {
        let written = rect.intersection(area)
        guard !written.isEmpty else { return (0, 0) }
        let rowBytes = written.width * 4
        for row in written.y..<written.maxY {
            let source: UnsafeRawPointer = plan.copied.contains(row)
                ? UnsafeRawPointer(base.pixels + (row + plan.shift) * base.stride + written.x * 4)
                : UnsafeRawPointer(stable + row * stableStride + written.x * 4)
            (frame.pixels + row * frame.stride + written.x * 4).copyMemory(from: source, byteCount: rowBytes)
        }
        return (written.height, written.height * rowBytes)
    }

    /// Draws `rows`, each as it looks now (entering, fading: `visuals`, by row id; at rest if absent).
    static func blend(_ rows: ArraySlice<PlacedRow>, into frame: FrameBuffer, area: PixelRect,
                      visuals: [String: RowVisual]) {
        guard !rows.isEmpty else { return }
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            for row in rows { paint(row, visuals[row.image.line.id] ?? .rest, left: area.x, on: cr) }
        }
    }

    /// Draws `row` as `visual` says, its place's left edge at `left`.
    private static func paint(_ row: PlacedRow, _ visual: RowVisual, left: Int, on cr: OpaquePointer) {
        guard visual.alpha > 0 else { return }
        cairo_set_source_surface(cr, row.image.image.surface, Double(left + visual.dx), Double(row.y))
        if visual.alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, visual.alpha) }
    }

    /// `rect` of the frame rebuilt: the stable layer's pixels (copied under Cairo's feet, which is
    /// told), then `row` as `visual` says, clipped to it.
    private static func repaint(_ rect: PixelRect, with row: PlacedRow, _ visual: RowVisual, left: Int,
                                in frame: FrameBuffer, cr: OpaquePointer, stable: UnsafeMutableRawPointer,
                                stableStride: Int) {
        cairo_surface_flush(cairo_get_target(cr))
        copyRows(from: stable, sourceStride: stableStride, to: frame.pixels, destinationStride: frame.stride, rect: rect)
        cairo_surface_mark_dirty(cairo_get_target(cr))
        cairo_save(cr)
        cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_clip(cr)
        paint(row, visual, left: left, on: cr)
        cairo_restore(cr)
    }

    /// Draws again, over the stable layer, the rows of `placed` (but the first `skipping`, drawn
    /// this frame already) that look different from the last frame (`before`); returns where.
    static func redrawMoving(_ placed: [PlacedRow], skipping: Int, visuals: [String: RowVisual],
                             before: [String: RowVisual], in frame: FrameBuffer, area: PixelRect,
                             stable: UnsafeMutableRawPointer, stableStride: Int) -> [PixelRect] {
        var changed: [PixelRect] = []
        withCairo(on: frame) { cr in
            for row in placed.dropFirst(skipping) {
                let id = row.image.line.id
                let visual = visuals[id] ?? .rest
                guard visual != before[id] ?? .rest else { continue }
                let rect = PixelRect(x: area.x, y: row.y, width: row.image.image.width, height: row.image.height)
                    .intersection(area)
                guard !rect.isEmpty else { continue }
                repaint(rect, with: row, visual, left: area.x, in: frame, cr: cr, stable: stable,
                        stableStride: stableStride)
                changed.append(rect)
            }
        }
        return changed
    }

    /// How each placed row looks at `now` (only those not at rest).
    static func visuals(of placed: [PlacedRow], motion: RowMotion?, now: Double) -> [String: RowVisual] {
        guard let motion else { return [:] }
        var visuals: [String: RowVisual] = [:]
        for row in placed {
            let visual = motion.visual(of: row.image.line.id, width: row.image.image.width, now: now)
            if visual != .rest { visuals[row.image.line.id] = visual }
        }
        return visuals
    }

    /// The frame each animated emote of `placed` shows at `now` (rows newest first, emotes in row order).
    static func animationFrames(_ placed: [PlacedRow], now: Double) -> [Int] {
        placed.flatMap { row in row.image.animated.map { $0.art.frameIndex(at: now) } }
    }

    /// Draws the animated emotes of `placed` at `frames`, each as its row looks (`visuals`). With
    /// `stable` (a frame built on the last one), each emote's rectangle is first rebuilt from the
    /// stable layer and its row's image, and the rectangles are returned as damage.
    static func redrawAnimated(_ placed: [PlacedRow], frames: [Int], visuals: [String: RowVisual],
                               in frame: FrameBuffer, area: PixelRect, stable: UnsafeMutableRawPointer?,
                               stableStride: Int) -> [PixelRect] {
        var damage: [PixelRect] = []
        var index = 0
        withCairo(on: frame) { cr in
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
            for row in placed {
                let visual = visuals[row.image.line.id] ?? .rest
                for (rect, art) in row.image.animated {
                    let target = PixelRect(x: area.x + visual.dx + rect.x, y: row.y + rect.y, width: rect.width,
                                           height: rect.height)
                    let shown = target.intersection(area)
                    if let stable, !shown.isEmpty {
                        repaint(shown, with: row, visual, left: area.x, in: frame, cr: cr, stable: stable,
                                stableStride: stableStride)
                        damage.append(shown)
                    }
                    let step = index < frames.count ? frames[index] : 0
                    if visual.alpha >= 1 {
                        LineImage.draw(art, frame: step, in: target, on: cr)
                    } else if visual.alpha > 0 {
                        cairo_push_group(cr)
                        LineImage.draw(art, frame: step, in: target, on: cr)
                        cairo_pop_group_to_source(cr)
                        cairo_paint_with_alpha(cr, visual.alpha)
                    }
                    index += 1
                }
            }
        }
        return damage
    }
}
