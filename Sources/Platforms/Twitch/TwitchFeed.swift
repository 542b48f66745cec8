// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import IRCPlatform

/// The `twitch` feed: the chat (anonymous IRC over WebSocket), the stream's metadata
/// (viewers, start) and the channel's third-party emotes side by side; each goes on when
/// another fails, and chat never waits for the others.
struct TwitchFeed: CommentFeed {
    var channel: String
    var endpoint: FeedEndpoint
    var metadata: TwitchMetadataPoller
    /// Where the third-party emote lists come from.
    var web: any WebFetching

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        let emotes = ThirdPartyEmotes(web: web)
        let chat = IRCChatFeed(flavor: .twitch, channel: channel, endpoint: endpoint,
                               roomSeen: { room in emotes.roomSeen(room) })
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await chat.run(emit: { event in emit(emotes.decorate(event)) }) }
            group.addTask { await metadata.run(emit: emit) }
            group.addTask { await emotes.run() }
            await group.waitForAll()
        }
    }
}
