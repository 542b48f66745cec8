// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarRender
import FoundationEssentials
import Logging
import Synchronization

/// Fetches and decodes the emotes' pictures off the render path, each URL once however
/// many rows show it, a few at a time (and at most two from one host, so a host that drips its
/// answers cannot take every slot), into `EmoteImages`; the frame loop is woken when one
/// arrives. A picture that cannot be used (too large, too many frames, not a picture, not
/// whole within 10 s) fails once, with one log line, and the emote shows as its text.
public final class EmoteFetches: Sendable {
    /// Issue 12's caps: a download of at most 2 MiB in 10 s (the whole download: a host that drips
    /// its body holds a slot no longer than that).
    package static let limits = WebLimits(maxBytes: 2 << 20, timeout: .seconds(10))
    static let maxConcurrent = 6
    /// Fetches from one host at once at most: a slow or dripping host holds no more slots.
    static let maxConcurrentPerHost = 2
    /// Pictures waiting for their turn at most: a chat naming picture after picture drops the
    /// oldest waiting ones (their rows show text; a row asking again fetches them).
    static let maxWaiting = 256

    /// Why a download gave no bytes, as a log line says it.
    public struct Failure: Error, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public typealias Fetch = @Sendable (String) async -> Result<[UInt8], Failure>

    public let store: EmoteImages
    private let fetch: Fetch
    private let arrived: @Sendable () -> Void
    private let log: Logger
    private struct Queue {
        var waiting: [String] = []
        var running: [String: Task<Void, Never>] = [:]
        var failuresLogged = 0
    }
    private let queue = Mutex(Queue())

    public init(store: EmoteImages = EmoteImages(), log: Logger, fetch: @escaping Fetch = EmoteFetches.https,
                arrived: @escaping @Sendable () -> Void) {
        self.store = store
        self.log = log
        self.fetch = fetch
        self.arrived = arrived
    }

    /// Makes sure the pictures of these rows' emotes are, or are being, fetched.
    public func want(_ lines: some Sequence<ChatLine>) {
        var new: [String] = []
        for line in lines {
            for emote in line.emotes where store.begin(emote.url) { new.append(emote.url) }
        }
        guard !new.isEmpty else { return }
        let dropped = queue.withLock { queue -> [String] in
            queue.waiting += new
            let excess = max(0, queue.waiting.count - Self.maxWaiting)
            defer { queue.waiting.removeFirst(excess) }
            return Array(queue.waiting.prefix(excess))
        }
        for url in dropped { store.forget(url) }
        startWaiting()
    }

    /// Waits until nothing is fetching (for `render`, which draws once), at most `seconds`.
    public func waitForAll(seconds: Double) async {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            if queue.withLock({ $0.waiting.isEmpty && $0.running.isEmpty }) { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Gives up the fetches still under way (`render`, which will not wait longer): their
    /// emotes show as text, each with a log line.
    public func giveUp(after seconds: Double) {
        let unfinished = queue.withLock { queue in
            let urls = queue.waiting + Array(queue.running.keys)
            for task in queue.running.values { task.cancel() }
            queue.waiting.removeAll()
            queue.running.removeAll()
            return urls
        }
        for url in unfinished {
            store.finish(url, .failed)
            log.warning("emote shown as text: \(WebFailure.shown(url)): no picture within \(Int(seconds)) s")
        }
    }

    private func startWaiting() {
        queue.withLock { queue in
            while queue.running.count < Self.maxConcurrent,
                  let next = queue.waiting.firstIndex(where: { url in
                      let host = Self.host(of: url)
                      return queue.running.keys.count { Self.host(of: $0) == host } < Self.maxConcurrentPerHost
                  }) {
                let url = queue.waiting.remove(at: next)
                queue.running[url] = Task { [self] in
                    let state = await load(url)
                    if Task.isCancelled { return }  // given up: already marked failed
                    store.finish(url, state)
                    self.queue.withLock { _ = $0.running.removeValue(forKey: url) }
                    arrived()
                    startWaiting()
                }
            }
        }
    }

    private func load(_ url: String) async -> EmoteImages.State {
        let problem: String
        switch await fetch(url) {
        case .success(let bytes):
            switch await Self.decode(bytes, name: WebFailure.shown(url)) {
            case .success(let art): return .ready(art)
            case .failure(let error): problem = error.description
            }
        case .failure(let failure):
            problem = failure.description
        }
        // One line per failed picture, and no more than 100 in all: a flood of bad emotes is not a flood of lines.
        let logged = queue.withLock { queue in
            queue.failuresLogged += 1
            return queue.failuresLogged
        }
        if logged <= 100 { log.warning("emote shown as text: \(problem)") }
        return .failed
    }

    /// The host a URL names (lower case), for the per-host limit; the whole URL when it names none.
    static func host(of url: String) -> String {
        URLComponents(string: url)?.host?.lowercased() ?? url
    }

    /// Pictures are decoded on threads of their own (`PictureDecoders.emotes`), never on the tasks'
    /// shared threads: a slow picture (within its decode budget) cannot hold up the frame loop,
    /// the heartbeat, or the other emotes' decoders.
    private static func decode(_ bytes: [UInt8], name: String) async -> Result<EmoteArt, Failure> {
        await PictureDecoders.emotes.run {
            do {
                return .success(try ImageLoader.emoteArt(bytes: bytes, name: name, height: EmoteImages.decodeHeight))
            } catch {
                return .failure(Failure("\(error)"))
            }
        }
    }

    /// The disk cache shared by every fetch of this process (nil when it cannot be made).
    static let diskCache = HTTPDiskCache()

    /// The renderer's HTTPS (`web`), within `limits`, through the disk cache: an emote seen in an
    /// earlier run is not downloaded again while the server said it stays fresh.
    package static func fetching(from web: any WebFetching, limits: WebLimits = EmoteFetches.limits,
                                 cache: HTTPDiskCache? = EmoteFetches.diskCache) -> Fetch {
        { url in
            if let cached = cache?.get(url) { return .success(cached) }
            do throws(WebFailure) {
                let answer = try await web.fetch(WebRequest(url: url, accept: "image/*", limits: limits))
                cache?.put(url, body: answer.body, cacheControl: answer.cacheControl)
                return .success(answer.body)
            } catch {
                return .failure(Failure(error.description))
            }
        }
    }

    /// `fetching` over the renderer's HTTPS.
    public static let https: Fetch = fetching(from: HTTPSTransport.shared)
}
