// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Synchronization

/// Decoded images by source and size, least recently used first out once their pixels
/// pass `maxBytes`; and the reason, per source, when one cannot be used (kept until
/// `forgetFailures`, so a bad file is not decoded again on every frame). Remote images
/// are decoded from the bytes `remote` holds once they have arrived.
///
/// When `remote` decodes off the frame loop (`RemoteImageStore.decoding`, in serve), a picture
/// not decoded yet is handed to the decoder threads and the bar shows the last picture of the
/// same source meanwhile (another size of it), or none; nothing is decoded on the frame loop.
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
    /// Decodes under way off the frame loop, by key.
    private var decoding: Set<String> = []
    /// Each source's newest decoded key: shown while another size of it decodes.
    private var newest: [String: String] = [:]
    private let arrivals = Arrivals()

    init(maxBytes: Int = ImageCache.defaultMaxBytes, remote: RemoteImageStore? = nil) {
        self.maxBytes = maxBytes
        self.remote = remote
    }

    var count: Int { entries.count }

    /// A picture decoded off the frame loop, on its way back (made once, never changed after).
    private struct Decoded: @unchecked Sendable {
        var key: String
        var source: String
        var isRemote: Bool
        var result: Result<ImageSurface, ImageLoader.Failure>
    }

    /// What the decoder threads finished, for the frame loop to take.
    private final class Arrivals: Sendable {
        private let decoded = Mutex<[Decoded]>([])
        func put(_ picture: Decoded) { decoded.withLock { $0.append(picture) } }
        func take() -> [Decoded] { decoded.withLock { list in defer { list.removeAll() }; return list } }
    }

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
        takeArrivals()
        if let entry = entries[key] { return entry.image }
        if failures[source] != nil { return nil }
        let decode: @Sendable () -> Result<ImageSurface, ImageLoader.Failure>
        let isRemote: Bool
        if case .remote = reference { isRemote = true } else { isRemote = false }
        switch reference {
        case .file(let path):
            decode = { Result { () throws(ImageLoader.Failure) in try ImageLoader.load(path: path, coverSide: coverSide) } }
        case .remote(let url):
            guard case .loaded(let bytes)? = remote?.state(of: url) else { return nil }
            decode = { Result { () throws(ImageLoader.Failure) in try ImageLoader.load(bytes: bytes, name: url, coverSide: coverSide) } }
        }
        guard let offLoop = remote?.decoding else {
            arrived(Decoded(key: key, source: source, isRemote: isRemote, result: decode()))
            return entries[key]?.image
        }
        if decoding.insert(key).inserted {
            let arrivals = self.arrivals, store = self.remote
            offLoop.decoders.submit {
                arrivals.put(Decoded(key: key, source: source, isRemote: isRemote, result: decode()))
                store?.pictureDecoded()
            }
        }
        return newest[source].flatMap { entries[$0]?.image }
    }

    /// Takes in what the decoder threads finished.
    private func takeArrivals() {
        for picture in arrivals.take() {
            decoding.remove(picture.key)
            arrived(picture)
        }
    }

    private func arrived(_ picture: Decoded) {
        switch picture.result {
        case .success(let image):
            insert(key: picture.key, image: image)
            newest[picture.source] = picture.key
        case .failure(let error):
            remember(failure: error.description, for: picture.source)
            if picture.isRemote { remote?.decoding?.failed(picture.source, error.description) }
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

    /// Whether decodes are under way off the frame loop (for tests).
    var isDecoding: Bool {
        takeArrivals()
        return !decoding.isEmpty
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
        newest = newest.filter { entries[$0.value] != nil }
    }
}
