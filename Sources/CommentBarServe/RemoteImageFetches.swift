// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarRender
import CommentBarSupport
import Logging
import Synchronization

/// Fetches the `https://` images the bar shows (avatar, background) off the render path,
/// into a `RemoteImageStore`; the frame loop is woken when one arrives. One fetch per
/// slot at a time: a feed that names a new image cancels the fetch of the old one, so a
/// flood of image events costs at most two fetches in flight. Its store has the bar's pictures
/// decoded off the frame loop too (`PictureDecoders.bar`), unless `decodesOffFrameLoop` is false
/// (`render`, which draws once); a remote picture that cannot be decoded is logged once.
public final class RemoteImageFetches: Sendable {
    public enum Slot: Sendable, Hashable {
        case avatar
        case background
    }

    /// An avatar or its background: a small picture, well under 2 MiB, in 10 s (the whole download).
    package static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(10))

    public typealias Fetch = @Sendable (String) async -> RemoteImageStore.State

    public let store: RemoteImageStore
    private let fetch: Fetch
    private let arrived: @Sendable () -> Void
    private let log: Logger
    private let inFlight = Mutex<[Slot: (url: String, task: Task<Void, Never>)]>([:])
    /// A picture that cannot be decoded is said once (per URL, for an hour): the frame loop asks
    /// for it again after a settings change.
    static let decodeFailureLogInterval: Duration = .seconds(3600)

    public init(log: Logger, fetch: @escaping Fetch = RemoteImageFetches.https, decodesOffFrameLoop: Bool = true,
                arrived: @escaping @Sendable () -> Void) {
        let throttle = LogThrottle(interval: Self.decodeFailureLogInterval)
        store = RemoteImageStore(decoding: decodesOffFrameLoop ? RemoteImageStore.Decoding(decoded: arrived, failed: { url, reason in
            if throttle.admit(url) != nil { log.warning("image not shown: \(reason)") }
        }) : nil)
        self.fetch = fetch
        self.arrived = arrived
        self.log = log
    }

    /// Makes sure the image `reference` names for `slot` is, or is being, fetched.
    public func want(_ reference: ImageReference?, for slot: Slot) {
        guard case .remote(let url)? = reference else {
            cancel(slot)
            return
        }
        inFlight.withLock { inFlight in
            if inFlight[slot]?.url == url { return }
            inFlight[slot]?.task.cancel()
            inFlight[slot] = nil
            guard store.begin(url) else { return }
            inFlight[slot] = (url, Task { [self] in
                let state = await fetch(url)
                if Task.isCancelled {
                    store.forget(url)  // no longer wanted: fetched again if it is wanted again
                    return
                }
                if case .failed(let reason) = state { log.warning("image not shown: \(reason)") }
                store.finish(url, state)
                self.inFlight.withLock { inFlight in
                    if inFlight[slot]?.url == url { inFlight[slot] = nil }
                }
                arrived()
            })
        }
    }

    /// Waits for the fetches under way (`render`, which draws once).
    public func waitForAll() async {
        let tasks = inFlight.withLock { $0.values.map(\.task) }
        for task in tasks { await task.value }
    }

    private func cancel(_ slot: Slot) {
        inFlight.withLock { inFlight in
            inFlight[slot]?.task.cancel()
            inFlight[slot] = nil
        }
    }

    /// The fetch over `web` with the caps above.
    package static func fetching(from web: any WebFetching, limits: WebLimits = RemoteImageFetches.limits) -> Fetch {
        { url in
            do throws(WebFailure) {
                let bytes = try await web.get(url, limits: limits, accept: "image/*")
                // Checked here, off the render path, so a bad picture is one log line and never decoded.
                if let problem = ImageLoader.problem(inImage: bytes, name: WebFailure.shown(url)) { return .failed(problem) }
                return .loaded(bytes)
            } catch {
                return .failed(error.description)
            }
        }
    }

    /// The real fetch: the renderer's HTTPS with the caps above.
    public static let https: Fetch = fetching(from: HTTPSTransport.shared)
}
