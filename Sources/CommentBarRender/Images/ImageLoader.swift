import CCairo
import CPangoCairo
import CommentBarCore

/// Decodes image files (PNG, JPEG, WebP, ... whatever gdk-pixbuf's loaders read)
/// into premultiplied Cairo surfaces, scaled on decode so that a huge file
/// costs no more memory than the size it is shown at.
enum ImageLoader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Loads `path` so that its shorter side is at least `side` pixels (cover fit).
    /// Larger files or pictures are refused: decoding them could exhaust the renderer.
    static let maxFileBytes = 64 << 20
    /// JPEG is scaled while it is decoded, so a large photo costs only its shown size.
    static let maxScaledDecodePixels = 50_000_000
    /// Other formats are decoded at full size and then scaled: 4 megapixels is 16 MiB.
    static let maxFullDecodePixels = 4_194_304

    static func load(path: String, coverSide side: Int) throws(Failure) -> ImageSurface {
        do {
            try RegularFile.check(path, maxBytes: maxFileBytes)
        } catch {
            throw Failure(description: error.description)
        }
        var width: Int32 = 0
        var height: Int32 = 0
        // The header alone tells the size: a picture too large to decode is refused before decoding.
        guard let format = gdk_pixbuf_get_file_info(path, &width, &height), width > 0, height > 0 else {
            throw Failure(description: "\(path): not an image file gdk-pixbuf can read")
        }
        let formatName = gdk_pixbuf_format_get_name(format).map { name in
            defer { g_free(name) }
            return String(cString: name)
        } ?? ""
        let limit = formatName == "jpeg" ? maxScaledDecodePixels : maxFullDecodePixels
        guard Int(width) * Int(height) <= limit else {
            throw Failure(description: "\(path): \(width)x\(height) is too large a picture (at most \(limit / 1_000_000) megapixels for \(formatName.isEmpty ? "this format" : formatName))")
        }
        let scale = min(1.0, Double(max(side, 1)) / Double(min(width, height)))
        let targetWidth = max(1, Int32((Double(width) * scale).rounded()))
        let targetHeight = max(1, Int32((Double(height) * scale).rounded()))
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file_at_scale(path, targetWidth, targetHeight, 1, &error) else {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "cannot decode"
            if let error { g_error_free(error) }
            throw Failure(description: "\(path): \(message)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        return surface(from: pixbuf)
    }

    /// Converts gdk-pixbuf's straight RGB(A) bytes into Cairo's premultiplied ARGB32.
    private static func surface(from pixbuf: OpaquePointer) -> ImageSurface {
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let image = ImageSurface(width: width, height: height)
        guard let source = gdk_pixbuf_read_pixels(pixbuf), let destination = image.data(), channels >= 3 else {
            return image
        }
        let destinationStride = image.stride
        for row in 0..<height {
            let input = source + row * sourceStride
            let output = (destination + row * destinationStride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                let pixel = input + column * channels
                let alpha = channels == 4 ? UInt32(pixel[3]) : 255
                func premultiply(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                output[column] = alpha << 24 | premultiply(pixel[0]) << 16 | premultiply(pixel[1]) << 8
                    | premultiply(pixel[2])
            }
        }
        cairo_surface_mark_dirty(image.surface)
        return image
    }
}
