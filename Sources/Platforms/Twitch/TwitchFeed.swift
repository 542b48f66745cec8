import CommentBarCore
import CommentBarFeeds
import IRCPlatform

/// The `twitch` feed: the chat (anonymous IRC over WebSocket) and the stream's metadata
/// (viewers, start) side by side; each goes on when the other fails.
struct TwitchFeed: CommentFeed {
    var chat: IRCChatFeed
    var metadata: TwitchMetadataPoller

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await chat.run(emit: emit) }
            group.addTask { await metadata.run(emit: emit) }
            await group.waitForAll()
        }
    }
}
