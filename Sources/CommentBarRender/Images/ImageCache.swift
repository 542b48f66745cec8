// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Decoded images by source and size, least recently used first out once their pixels
/// pass `maxBytes`; and the reason, per source, when one cannot be used (kept until
/// `forgetFailures`, so a bad file is not decoded again on every frame). Remote images
/// are decoded from the bytes `remote` holds once they have arrived.
final class ImageCache {
    /// The avatar and its background (emotes have their own store, EmoteImages).
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
    /// Sources in the order they failed: the oldest reasons go first past `maxFailures`.
    private var failureOrder: [String] = []
    /// Reasons kept at most: a feed naming endless distinct bad pictures must not grow the table.
    static let maxFailures = 256

    let remote: RemoteImageStore?

    init(maxBytes: Int = ImageCache.defaultMaxBytes, remote: RemoteImageStore? = nil) {
        self.maxBytes = maxBytes
        self.remote = remote
    }

    var count: Int { entries.count }

    /// The image decoded so that its shorter side covers `coverSide` pixels; nil while a
    /// remote image has not arrived, or when it cannot be used.
    func image(_ reference: ImageReference, coverSide: Int) -> ImageSurface? {
        let source = reference.description
        let key = "\(coverSide)|\(source)"
        useCounter += 1
        if let entry = entries[key] {
            entries[key]?.lastUse = useCounter
            return entry.image
        }
        if failures[source] != nil { return nil }
        do {
            let image: ImageSurface
            switch reference {
            case .file(let path):
                image = try ImageLoader.load(path: path, coverSide: coverSide)
            case .remote(let url):
                guard case .loaded(let bytes)? = remote?.state(of: url) else { return nil }
                image = try ImageLoader.load(bytes: bytes, name: url, coverSide: coverSide)
            }
            insert(key: key, image: image)
            return image
        } catch {
            remember(failure: error.description, for: source)
            return nil
        }
    }

    /// Why the first of these local files could not be used, if one could not. Remote
    /// images are never named on the bar: their problems go to the log.
    func failure(for references: [ImageReference?]) -> String? {
        references.compactMap { reference -> String? in
            guard case .file(let path)? = reference else { return nil }
            return failures[path]
        }.first
    }

    func forgetFailures() {
        failures.removeAll()
        failureOrder.removeAll()
    }

    private func remember(failure: String, for source: String) {
        if failures.updateValue(failure, forKey: source) == nil { failureOrder.append(source) }
        if failureOrder.count > Self.maxFailures {
            let excess = failureOrder.count - Self.maxFailures
            for old in failureOrder.prefix(excess) { failures[old] = nil }
            failureOrder.removeFirst(excess)
        }
    }

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
