// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CCairo
import CPangoCairo

/// An ARGB32 Cairo image surface that owns its memory (a cache layer, an image).
final class ImageSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))
    }

    deinit { cairo_surface_destroy(surface) }

    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// Pixels after drawing into the surface with Cairo (flushes first).
    func data() -> UnsafeMutableRawPointer? {
        cairo_surface_flush(surface)
        return cairo_image_surface_get_data(surface).map(UnsafeMutableRawPointer.init)
    }

    /// A hash of the pixels, to tell frames apart (within one run).
    func digest() -> Int {
        guard let pixels = data() else { return 0 }
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: pixels, count: stride * height))
        return hasher.finalize()
    }

    func withContext<T>(_ body: (OpaquePointer) -> T) -> T {
        // Cairo never returns NULL here: failures give an object in an error state.
        let cr: OpaquePointer = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(surface)
        }
        return body(cr)
    }
}

/// A Cairo context drawing straight into a frame buffer's memory: no intermediate image.
func withCairo<T>(on frame: FrameBuffer, _ body: (OpaquePointer) -> T) -> T {
    // Cairo never returns NULL from its constructors: failures give objects in an error state.
    let surface: OpaquePointer = cairo_image_surface_create_for_data(
        frame.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
        Int32(frame.width), Int32(frame.height), Int32(frame.stride))
    let cr: OpaquePointer = cairo_create(surface)
    defer {
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        cairo_surface_destroy(surface)
    }
    return body(cr)
}

/// Integer pixel rectangle.
struct PixelRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part inside `other` (empty when they do not meet).
    func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x), top = max(y, other.y)
        return PixelRect(x: left, y: top, width: max(0, min(maxX, other.maxX) - left),
                         height: max(0, min(maxY, other.maxY) - top))
    }

    /// This rectangle without `other`: up to four bands (above, below, left, right of it).
    func subtracting(_ other: PixelRect) -> [PixelRect] {
        let cut = intersection(other)
        guard !cut.isEmpty else { return isEmpty ? [] : [self] }
        return [PixelRect(x: x, y: y, width: width, height: cut.y - y),
                PixelRect(x: x, y: cut.maxY, width: width, height: maxY - cut.maxY),
                PixelRect(x: x, y: cut.y, width: cut.x - x, height: cut.height),
                PixelRect(x: cut.maxX, y: cut.y, width: maxX - cut.maxX, height: cut.height)].filter { !$0.isEmpty }
    }

    func clamped(width: Int, height: Int) -> PixelRect {
        let left = max(0, x), top = max(0, y)
        return PixelRect(x: left, y: top, width: max(0, min(maxX, width) - left), height: max(0, min(maxY, height) - top))
    }
}

/// Copies rows of pixels between two ARGB32 buffers (the fast path of composition).
func copyRows(from source: UnsafeRawPointer, sourceStride: Int, to destination: UnsafeMutableRawPointer,
              destinationStride: Int, rect: PixelRect) {
    guard !rect.isEmpty else { return }
    let rowBytes = rect.width * 4
    if rect.x == 0, sourceStride == destinationStride, rowBytes == sourceStride {
        // Whole rows: one copy.
        let offset = rect.y * sourceStride
        (destination + offset).copyMemory(from: source + offset, byteCount: rowBytes * rect.height)
        return
    }
    for row in rect.y..<rect.maxY {
        (destination + row * destinationStride + rect.x * 4)
            .copyMemory(from: source + row * sourceStride + rect.x * 4, byteCount: rowBytes)
    }
}
