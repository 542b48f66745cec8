// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarMemory
import CommentBarServices

/// The viewer memory (`MemoryHook`): it follows the settings and OBS's state, and wraps each live
/// stream's feed so its comments are looked up, badged and logged. Replays (the demo and file
/// services) are not a new stream and pass through untouched.
final class MemoryPart: SessionPart {
    let hook: MemoryHook

    init(_ hook: MemoryHook) {
        self.hook = hook
    }

    func apply(_ input: inout SessionInput) {
        hook.command(settings: input.message.settings, obs: input.message.obs)
    }

    func wrap(_ feed: any CommentFeed, stream: StreamPlan.Stream) -> any CommentFeed {
        let isReplay = ServiceRegistry.product.service(id: stream.service)?.makeTimeline != nil
        return hook.feed(feed, address: stream.address, isReplay: isReplay)
    }

    var problem: String? { hook.problem }

    func stop() async {
        hook.stop()
    }
}
