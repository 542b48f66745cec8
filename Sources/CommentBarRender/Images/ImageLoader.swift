// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CPangoCairo
import CommentBarCore
import CommentBarSupport
import FoundationEssentials

/// Decodes PNG, JPEG, GIF and WebP pictures (and nothing else: see `ImageFormat`) into
/// premultiplied Cairo surfaces, scaled on decode so that a huge file costs no more memory
/// than the size it is shown at. Every decode has a time budget and a longest side.
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
    /// A picture's longest side at most: a 40000×1 strip is refused even though its pixels are few.
    static let maxSide: Int32 = 8192
    /// An emote's longest side at most (the widest emotes are about 4:1).
    static let maxEmoteSide: Int32 = 1024
    /// How long one picture may take to decode; the bytes are fed in slices and the clock
    /// checked between them, so a slow picture is given up instead of holding its thread.
    static let decodeBudget: Duration = .seconds(2)
    /// The slice of bytes given to the loader between two looks at the clock.
    static let sliceBytes = 16 << 10
    /// JPEG's slices: smaller, and each holds the start of one scan at most (`JPEGScans`), since
    /// the loader may redraw the whole picture after every scan.
    static let jpegSliceBytes = 4 << 10

    static func load(path: String, coverSide side: Int) throws(Failure) -> ImageSurface {
        do {
            try RegularFile.check(path, maxBytes: maxFileBytes)
        } catch {
            throw Failure(description: error.description)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot be read")
        }
        // The streamer's own file goes through the same loader as a feed's picture (the four
        // formats by their magic bytes, the size from the header, the scans counted, the budget);
        // a large JPEG may be bigger, as it is decoded straight at the size shown.
        return try load(bytes: Array(data), name: path, coverSide: side, maxJPEGPixels: maxScaledDecodePixels)
    }

    /// Decodes image bytes (a remote image) so that its shorter side covers `side` pixels.
    /// The picture's size is read from its header before anything is decoded: a loader
    /// told to make a 0×0 picture stops with an error instead of allocating the full size.
    static func load(bytes: [UInt8], name: String, coverSide side: Int,
                     maxJPEGPixels: Int = maxFullDecodePixels) throws(Failure) -> ImageSurface {
        let maxPixels = ImageFormat(sniffing: bytes) == .jpeg ? maxJPEGPixels : maxFullDecodePixels
        let check = SizeCheck(maxPixels: maxPixels, maxSide: maxSide, coverSide: side, headerOnly: false)
        return try withLoader(bytes: bytes, name: name, check: check) { pixbuf throws(Failure) in
            guard let pixbuf else { throw Failure(description: "\(name): not an image gdk-pixbuf can read") }
            return surface(from: pixbuf)
        }
    }

    /// Why `bytes` cannot be shown (not a picture gdk-pixbuf reads, or too large), read
    /// from the header alone; nil if it can. For fetchers, so a bad image is logged once.
    public static func problem(inImage bytes: [UInt8], name: String) -> String? {
        let check = SizeCheck(maxPixels: maxFullDecodePixels, maxSide: maxSide, coverSide: 1, headerOnly: true)
        do {
            try withLoader(bytes: bytes, name: name, check: check) { _ throws(Failure) in }
            return nil
        } catch {
            return error.description
        }
    }

    /// An emote's picture: its frames (one for a still image) scaled to `height` pixels, with
    /// their delays. Refused, with a reason, when larger than 512×512 or not a picture;
    /// at most `maxFrames` frames (an animation's first `maxFrames`).
    public static func emoteArt(bytes: [UInt8], name: String, height: Int, maxFrames: Int = 500) throws -> EmoteArt {
        let check = SizeCheck(maxPixels: 512 * 512, maxSide: maxEmoteSide, coverSide: 4096, headerOnly: false)
        return try withLoader(bytes: bytes, name: name, check: check, animation: true) { animation throws(Failure) in
            guard let animation else { throw Failure(description: "\(name): not an image gdk-pixbuf can read") }
            if gdk_pixbuf_animation_is_static_image(animation) != 0, let still = gdk_pixbuf_animation_get_static_image(animation) {
                return EmoteArt(frames: [scaled(still, height: height)], delays: [0])
            }
            var milliseconds: Int64 = 0
            guard let iterator = cb_pixbuf_animation_iter_at(animation, milliseconds) else {
                throw Failure(description: "\(name): cannot read its frames")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(iterator)) }
            // gdk-pixbuf composes every frame into one reused picture and loops for ever, so the
            // frames are collected for up to 20 s of animation and the loop is found from their pixels.
            var frames: [ImageSurface] = []
            var delays: [Double] = []
            var digests: [Int] = []
            while frames.count < maxFrames, milliseconds < 20_000 {
                guard ContinuousClock.now < check.deadline else {
                    throw Failure(description: "\(name): its frames take more than \(decodeBudget) to decode")
                }
                guard let pixbuf = gdk_pixbuf_animation_iter_get_pixbuf(iterator) else { break }
                let delay = Int(gdk_pixbuf_animation_iter_get_delay_time(iterator))
                let frame = scaled(pixbuf, height: height)
                frames.append(frame)
                digests.append(frame.digest())
                // Browsers show delays under 20 ms as 100 ms; so does the bar.
                delays.append(delay < 20 ? 0.1 : Double(delay) / 1000)
                if delay < 0 || Self.showsTwoLoops(digests) { break }
                milliseconds += Int64(delay < 20 ? 100 : delay)
                _ = cb_pixbuf_animation_iter_advance_to(iterator, milliseconds)
            }
            let period = Self.loopLength(digests)
            frames.removeSubrange(period...)
            delays.removeSubrange(period...)
            guard !frames.isEmpty else { throw Failure(description: "\(name): no frames") }
            return EmoteArt(frames: frames, delays: delays)
        }
    }

    /// Whether the frames so far are one sequence shown twice: enough to know the loop.
    static func showsTwoLoops(_ digests: [Int]) -> Bool {
        let count = digests.count
        guard count >= 4, count % 2 == 0 else { return false }
        let half = count / 2
        return digests[half...].elementsEqual(digests[..<half])
    }

    /// The shortest loop the frames repeat (their whole count when they do not repeat).
    static func loopLength(_ digests: [Int]) -> Int {
        guard digests.count > 2 else { return max(digests.count, 1) }
        for period in 1...(digests.count / 2) where (period..<digests.count).allSatisfy({ digests[$0] == digests[$0 - period] }) {
            return period
        }
        return digests.count
    }

    /// A pixbuf scaled to `height` pixels (aspect kept), as a Cairo surface.
    private static func scaled(_ pixbuf: OpaquePointer, height: Int) -> ImageSurface {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), sourceHeight = Int(gdk_pixbuf_get_height(pixbuf))
        guard sourceHeight > height, let smaller = gdk_pixbuf_scale_simple(
            pixbuf, Int32(max(1, (Double(width) * Double(height) / Double(sourceHeight)).rounded())), Int32(height),
            GDK_INTERP_BILINEAR) else { return surface(from: pixbuf) }
        defer { g_object_unref(UnsafeMutableRawPointer(smaller)) }
        return surface(from: smaller)
    }

    /// Runs a gdk-pixbuf loader over `bytes` with `check` watching the header, and hands
    /// `body` the picture (nil when only the header was wanted), or with `animation` its
    /// GdkPixbufAnimation.
    private static func withLoader<T>(bytes: [UInt8], name: String, check: SizeCheck, animation: Bool = false,
                                      _ body: (OpaquePointer?) throws(Failure) -> T) throws(Failure) -> T {
        guard !bytes.isEmpty else { throw Failure(description: "\(name): empty image") }
        // Only the four formats, each with its own loader named: never a sniffed one.
        guard let format = ImageFormat(sniffing: bytes) else {
            throw Failure(description: "\(name): \(ImageFormat.refusal)")
        }
        let sliceEnds: [Int]
        if format == .jpeg {
            let scans = JPEGScans(bytes)
            guard !scans.isOverLimit else {
                throw Failure(description: "\(name): a JPEG of more than \(JPEGScans.maxScans) scans is refused (each costs a whole decode)")
            }
            sliceEnds = scans.sliceEnds(count: bytes.count, sliceBytes: jpegSliceBytes)
        } else {
            sliceEnds = Array(stride(from: sliceBytes, to: bytes.count, by: sliceBytes)) + [bytes.count]
        }
        var typeError: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(format.loaderName, &typeError) else {
            if let typeError { g_error_free(typeError) }
            throw Failure(description: "\(name): no \(format.loaderName) loader in gdk-pixbuf")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32,
                                          UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
            guard let loader, let data else { return }
            let check = Unmanaged<SizeCheck>.fromOpaque(data).takeUnretainedValue()
            check.width = width
            check.height = height
            check.tooLarge = width <= 0 || height <= 0 || Int(width) * Int(height) > check.maxPixels
                || max(width, height) > check.maxSide
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
        // gdk-pixbuf closes a truncated PNG without an error: the rows it decoded tell.
        let areaUpdated: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, Int32, Int32,
                                         UnsafeMutableRawPointer?) -> Void = { _, _, y, _, height, data in
            guard let data else { return }
            let check = Unmanaged<SizeCheck>.fromOpaque(data).takeUnretainedValue()
            check.decodedRows = max(check.decodedRows, y + height)
        }
        let handle = Unmanaged.passRetained(check)
        defer { handle.release() }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(sizePrepared, to: GCallback.self), handle.toOpaque(), nil,
                              GConnectFlags(rawValue: 0))
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "area-updated",
                              unsafeBitCast(areaUpdated, to: GCallback.self), handle.toOpaque(), nil,
                              GConnectFlags(rawValue: 0))
        var error: UnsafeMutablePointer<GError>?
        var written: gboolean = 1
        var outOfTime = false
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            for end in sliceEnds where end > offset {
                guard written != 0, !check.tooLarge, !(check.headerOnly && check.width > 0) else { return }
                if ContinuousClock.now >= check.deadline {
                    outOfTime = true
                    return
                }
                written = gdk_pixbuf_loader_write(loader, base + offset, gsize(end - offset), &error)
                offset = end
            }
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        defer {
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
        }
        if check.tooLarge {
            throw Failure(description: "\(name): \(check.width)x\(check.height) is too large a picture (at most \(check.maxPixels >= 1_000_000 ? "\(check.maxPixels / 1_000_000) megapixels" : "\(check.maxPixels) pixels"), \(check.maxSide) a side)")
        }
        if outOfTime || ContinuousClock.now >= check.deadline {
            throw Failure(description: "\(name): took more than \(decodeBudget) to decode")
        }
        if check.headerOnly, check.width > 0 { return try body(nil) }
        // Only loaders that report the rows they decode (PNG, JPEG, GIF; not WebP's) are judged so.
        let reportsRows = gdk_pixbuf_loader_get_format(loader).flatMap { format -> String? in
            guard let name = gdk_pixbuf_format_get_name(format) else { return nil }
            defer { g_free(name) }
            return String(cString: name)
        }.map { ["png", "jpeg", "gif"].contains($0) } ?? false
        if reportsRows, written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader),
           check.decodedRows < gdk_pixbuf_get_height(pixbuf) {
            throw Failure(description: "\(name): the picture is cut short (\(check.decodedRows) of \(gdk_pixbuf_get_height(pixbuf)) rows)")
        }
        if animation, written != 0, closed != 0 { return try body(gdk_pixbuf_loader_get_animation(loader)) }
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            let message = (error ?? closeError).flatMap { $0.pointee.message.map { String(cString: $0) } }
            throw Failure(description: "\(name): \(message ?? "not an image gdk-pixbuf can read")")
        }
        return try body(pixbuf)
    }

    /// What the loader's size-prepared callback found.
    private final class SizeCheck {
        let maxPixels: Int
        let maxSide: Int32
        let coverSide: Int
        /// When the decode is given up.
        let deadline = ContinuousClock.now + ImageLoader.decodeBudget
        /// Stop after the header: only the size is wanted.
        let headerOnly: Bool
        var width: Int32 = 0
        var height: Int32 = 0
        var tooLarge = false
        /// How far down the picture the loader got.
        var decodedRows: Int32 = 0

        init(maxPixels: Int, maxSide: Int32, coverSide: Int, headerOnly: Bool) {
            self.maxPixels = maxPixels
            self.maxSide = maxSide
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
