import CCairo
import CPangoCairo
import CommentBarCore

/// Decodes image files (PNG, JPEG, WebP, ... whatever gdk-pixbuf's loaders read)
/// into premultiplied Cairo surfaces, scaled on decode so that a huge file
/// costs no more memory than the size it is shown at.
public enum ImageLoader {
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

    /// Decodes image bytes (a remote image) so that its shorter side covers `side` pixels.
    /// The picture's size is read from its header before anything is decoded: a loader
    /// told to make a 0×0 picture stops with an error instead of allocating the full size.
    static func load(bytes: [UInt8], name: String, coverSide side: Int) throws(Failure) -> ImageSurface {
        let check = SizeCheck(maxPixels: maxFullDecodePixels, coverSide: side, headerOnly: false)
        return try withLoader(bytes: bytes, name: name, check: check) { pixbuf throws(Failure) in
            guard let pixbuf else { throw Failure(description: "\(name): not an image gdk-pixbuf can read") }
            return surface(from: pixbuf)
        }
    }

    /// Why `bytes` cannot be shown (not a picture gdk-pixbuf reads, or too large), read
    /// from the header alone; nil if it can. For fetchers, so a bad image is logged once.
    public static func problem(inImage bytes: [UInt8], name: String) -> String? {
        let check = SizeCheck(maxPixels: maxFullDecodePixels, coverSide: 1, headerOnly: true)
        do {
            try withLoader(bytes: bytes, name: name, check: check) { _ throws(Failure) in }
            return nil
        } catch {
            return error.description
        }
    }

    /// Runs a gdk-pixbuf loader over `bytes` with `check` watching the header, and hands
    /// `body` the picture (nil when only the header was wanted).
    private static func withLoader<T>(bytes: [UInt8], name: String, check: SizeCheck,
                                      _ body: (OpaquePointer?) throws(Failure) -> T) throws(Failure) -> T {
        guard !bytes.isEmpty, let loader = gdk_pixbuf_loader_new() else {
            throw Failure(description: "\(name): empty image")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32,
                                          UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
            guard let loader, let data else { return }
            let check = Unmanaged<SizeCheck>.fromOpaque(data).takeUnretainedValue()
            check.width = width
            check.height = height
            check.tooLarge = width <= 0 || height <= 0 || Int(width) * Int(height) > check.maxPixels
            if check.tooLarge || check.headerOnly {
                gdk_pixbuf_loader_set_size(loader, 0, 0)  // the loader stops here, allocating nothing
                return
            }
            // Formats that can (JPEG) decode straight at the size shown.
            let scale = min(1.0, Double(max(check.coverSide, 1)) / Double(min(width, height)))
            if scale < 1 {
                gdk_pixbuf_loader_set_size(loader, max(1, Int32((Double(width) * scale).rounded())),
                                           max(1, Int32((Double(height) * scale).rounded())))
            }
        }
        let handle = Unmanaged.passRetained(check)
        defer { handle.release() }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(sizePrepared, to: GCallback.self), handle.toOpaque(), nil,
                              GConnectFlags(rawValue: 0))
        var error: UnsafeMutablePointer<GError>?
        let written = bytes.withUnsafeBufferPointer { buffer in
            gdk_pixbuf_loader_write(loader, buffer.baseAddress, gsize(buffer.count), &error)
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        defer {
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
        }
        if check.tooLarge {
            throw Failure(description: "\(name): \(check.width)x\(check.height) is too large a picture (at most \(maxFullDecodePixels / 1_000_000) megapixels)")
        }
        if check.headerOnly, check.width > 0 { return try body(nil) }
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            let message = (error ?? closeError).flatMap { $0.pointee.message.map { String(cString: $0) } }
            throw Failure(description: "\(name): \(message ?? "not an image gdk-pixbuf can read")")
        }
        return try body(pixbuf)
    }

    /// What the loader's size-prepared callback found.
    private final class SizeCheck {
        let maxPixels: Int
        let coverSide: Int
        /// Stop after the header: only the size is wanted.
        let headerOnly: Bool
        var width: Int32 = 0
        var height: Int32 = 0
        var tooLarge = false

        init(maxPixels: Int, coverSide: Int, headerOnly: Bool) {
            self.maxPixels = maxPixels
            self.coverSide = coverSide
            self.headerOnly = headerOnly
        }
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
