// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import FoundationEssentials

/// The live viewer count, from `updated_metadata` about every 30 s (as the player refreshes
/// "N watching now"); the watch page's own figure is stale and never used.
struct ViewerPoller: Sendable {
    static let interval: Duration = .seconds(30)

    var api: InnerTubeAPI
    var start: WatchPage.LiveChatStart

    func run(emit: @escaping @Sendable (FeedEvent) -> Void, problems: InputProblemLog) async {
        let decoder = JSONDecoder()
        while !Task.isCancelled {
            var wait = Self.interval
            do {
                let body = try await api.updatedMetadata(start)
                if let count = (try? decoder.decode(UpdatedMetadata.self, from: Data(body)))?.liveViewers {
                    emit(.viewers(count))
                } else {
                    problems.note("updated_metadata: no live viewer count in the response")
                }
            } catch {
                problems.note("viewer count: \(error.description)")
                if error.status == 429 { wait = .seconds(120) }
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }
}

/// An `updated_metadata` response: `updateViewershipAction` holds the count.
struct UpdatedMetadata: Decodable, Sendable {
    var actions: [Skippable<Action>]?

    struct Action: Decodable, Sendable { var updateViewershipAction: Viewership? }
    struct Viewership: Decodable, Sendable { var viewCount: ViewCount? }
    struct ViewCount: Decodable, Sendable { var videoViewCountRenderer: Renderer? }
    struct Renderer: Decodable, Sendable {
        var isLive: Bool?
        var originalViewCount: LenientInt?
        var viewCount: YouTubeText?
    }

    /// The number watching now; nil when the video is not live (the count would then be
    /// its total views) or the response names none.
    var liveViewers: Int? {
        for action in actions ?? [] {
            guard let renderer = action.value?.updateViewershipAction?.viewCount?.videoViewCountRenderer,
                  renderer.isLive != false else { continue }
            if let count = renderer.originalViewCount?.value { return count }
            let digits = (renderer.viewCount?.plain ?? "").filter { $0.isASCII && $0.isNumber }
            if let count = Int(digits.prefix(12)) { return count }
        }
        return nil
    }
}
