/// Decoded images by source and size, least recently used first out once their pixels
/// pass `maxBytes`; and the reason, per source, when one cannot be used (kept until
/// `forgetFailures`, so a bad file is not decoded again on every frame).
final class ImageCache {
    /// The avatar and its background are two images; emotes (issue 12) will be many more.
    static let defaultMaxBytes = 32 << 20

    private struct Entry {
        var image: ImageSurface
        var bytes: Int
        var lastUse: UInt64
    }

    let maxBytes: Int
    private var entries: [String: Entry] = [:]
    private(set) var totalBytes = 0
    private var useCounter: UInt64 = 0
    private(set) var failures: [String: String] = [:]

    init(maxBytes: Int = ImageCache.defaultMaxBytes) {
        self.maxBytes = maxBytes
    }

    var count: Int { entries.count }

    /// The image of `source` decoded so that its shorter side covers `coverSide` pixels.
    func image(source: String, coverSide: Int, decode: (String, Int) throws(ImageLoader.Failure) -> ImageSurface)
        -> ImageSurface?
    {
        let key = "\(coverSide)|\(source)"
        useCounter += 1
        if let entry = entries[key] {
            entries[key]?.lastUse = useCounter
            return entry.image
        }
        if failures[source] != nil { return nil }
        do {
            let image = try decode(source, coverSide)
            insert(key: key, image: image)
            return image
        } catch {
            failures[source] = error.description
            return nil
        }
    }

    /// The reason the first of these sources that could not be used failed, if one did.
    func failure(for sources: [String?]) -> String? {
        sources.compactMap { $0 }.compactMap { failures[$0] }.first
    }

    func forgetFailures() { failures.removeAll() }

    private func insert(key: String, image: ImageSurface) {
        let bytes = image.stride * image.height
        entries[key] = Entry(image: image, bytes: bytes, lastUse: useCounter)
        totalBytes += bytes
        // The image just added stays even if it alone is over the cap: it is on screen.
        while totalBytes > maxBytes, entries.count > 1,
              let oldest = entries.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
            totalBytes -= oldest.value.bytes
            entries[oldest.key] = nil
        }
    }
}
