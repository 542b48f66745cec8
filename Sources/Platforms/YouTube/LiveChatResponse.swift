// SPDX-License-Identifier: GPL-2.0-or-later
/// A `get_live_chat` response: the actions since the last poll and the next continuation
/// with how long to wait before asking for it. Only the paths the mapper reads are decoded.
struct LiveChatResponse: Decodable, Sendable {
    var continuationContents: ContinuationContents?

    struct ContinuationContents: Decodable, Sendable { var liveChatContinuation: LiveChatContinuation? }
    struct LiveChatContinuation: Decodable, Sendable {
        var continuations: [Skippable<Continuation>]?
        var actions: [Skippable<ChatAction>]?
    }
    struct Continuation: Decodable, Sendable {
        var invalidationContinuationData: ContinuationData?
        var timedContinuationData: ContinuationData?
        var reloadContinuationData: ContinuationData?
    }
    struct ContinuationData: Decodable, Sendable {
        var continuation: String?
        var timeoutMs: LenientInt?
    }

    /// The next poll: its continuation and YouTube's wait in milliseconds. Nil when the
    /// response names none: the stream (and its chat) is over.
    var next: (continuation: String, timeoutMs: Int?)? {
        for entry in continuationContents?.liveChatContinuation?.continuations ?? [] {
            guard let value = entry.value,
                  let data = value.invalidationContinuationData ?? value.timedContinuationData ?? value.reloadContinuationData,
                  let continuation = data.continuation, !continuation.isEmpty else { continue }
            return (continuation, data.timeoutMs?.value)
        }
        return nil
    }

    var actions: [ChatAction] {
        (continuationContents?.liveChatContinuation?.actions ?? []).compactMap(\.value)
    }

    /// How many actions had a shape that could not be decoded (logged, then skipped).
    var undecodedActions: Int {
        (continuationContents?.liveChatContinuation?.actions ?? []).count - actions.count
    }
}

/// One chat action. Ticker items (`addLiveChatTickerItemAction`), banners, polls and the
/// like are not decoded: they repeat what chat items already showed, or are not rows.
struct ChatAction: Decodable, Sendable {
    var addChatItemAction: AddChatItem?
    var replaceChatItemAction: ReplaceChatItem?
    var markChatItemAsDeletedAction: TargetItem?
    var removeChatItemAction: TargetItem?
    var markChatItemsByAuthorAsDeletedAction: ByAuthor?
    var removeChatItemByAuthorAction: ByAuthor?

    struct AddChatItem: Decodable, Sendable { var item: ChatItem? }
    struct ReplaceChatItem: Decodable, Sendable {
        var targetItemId: String?
        var replacementItem: ChatItem?
    }
    struct TargetItem: Decodable, Sendable { var targetItemId: String? }
    struct ByAuthor: Decodable, Sendable { var externalChannelId: String? }
}

/// The renderers of chat rows.
struct ChatItem: Decodable, Sendable {
    var liveChatTextMessageRenderer: MessageRenderer?
    var liveChatPaidMessageRenderer: MessageRenderer?
    var liveChatPaidStickerRenderer: MessageRenderer?
    var liveChatMembershipItemRenderer: MessageRenderer?
    var liveChatSponsorshipsGiftPurchaseAnnouncementRenderer: GiftPurchase?
    var liveChatPlaceholderItemRenderer: MessageRenderer?

    struct GiftPurchase: Decodable, Sendable {
        var id: String?
        var authorExternalChannelId: String?
        var header: Header?
        struct Header: Decodable, Sendable { var liveChatSponsorshipsHeaderRenderer: MessageRenderer? }
    }
}

/// The fields text messages, Super Chats, Super Stickers, memberships and the gift header share.
struct MessageRenderer: Decodable, Sendable {
    var id: String?
    var authorName: YouTubeText?
    var authorExternalChannelId: String?
    var authorBadges: [Skippable<Badge>]?
    var message: YouTubeText?
    // Super Chat / Super Sticker
    var purchaseAmountText: YouTubeText?
    var bodyBackgroundColor: Int64?
    var headerBackgroundColor: Int64?
    var moneyChipBackgroundColor: Int64?
    var backgroundColor: Int64?
    var sticker: Sticker?
    // Memberships and gift headers
    var headerPrimaryText: YouTubeText?
    var headerSubtext: YouTubeText?
    var primaryText: YouTubeText?

    struct Sticker: Decodable, Sendable { var accessibility: Accessibility? }

    struct Badge: Decodable, Sendable {
        var liveChatAuthorBadgeRenderer: Renderer?
        struct Renderer: Decodable, Sendable {
            var icon: Icon?
            var tooltip: String?
            var customThumbnail: Thumbnail?
        }
        struct Icon: Decodable, Sendable { var iconType: String? }
        struct Thumbnail: Decodable, Sendable { var thumbnails: [Skippable<ThumbnailURL>]? }
        struct ThumbnailURL: Decodable, Sendable { var url: String? }
    }
}
