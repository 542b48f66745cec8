// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Turns Kick's chat events (Pusher messages on `chatrooms.ID.v2` and `channel.ID`) into bar
/// events: messages with colour, badges and emotes, deletions, bans and timeouts, a cleared
/// chat, subscriptions and gifted subscriptions as gifts, the end of the stream.
struct KickChatMapper {
    enum Action: Equatable {
        case emit(FeedEvent)
        /// The stream ended (`StopStreamBroadcast`).
        case ended
        /// A kind that carries nothing for the bar (pins, polls, follower counts, …).
        case ignore
        /// Malformed or unknown: skipped with a log line.
        case unknown(String)
    }

    static let eventPrefix = "App\\Events\\"
    /// Kinds known to carry nothing for the bar.
    static let ignoredKinds: Set<String> = [
        "PinnedMessageCreatedEvent", "PinnedMessageDeletedEvent", "PollUpdateEvent", "PollDeleteEvent",
        "FollowersUpdated", "ChatroomUpdatedEvent", "StreamHostEvent", "LivestreamUpdated", "StreamerIsLive",
        "UserUnbannedEvent", "ChannelSubscriptionEvent", "LuckyUsersWhoGotGiftSubscriptionsEvent",
        "RewardRedeemedEvent", "KicksGifted",
    ]

    struct Sender: Decodable {
        var username: String?
        var slug: String?
        var identity: Identity?
    }

    struct Identity: Decodable {
        var color: String?
        var badges: [Badge]?
    }

    struct Badge: Decodable {
        var type: String?
    }

    struct ChatMessage: Decodable {
        var id: String?
        var content: String?
        var type: String?
        var sender: Sender?
    }

    struct MessageDeleted: Decodable {
        struct Message: Decodable { var id: String? }
        var message: Message?
    }

    struct UserBanned: Decodable {
        var user: Sender?
    }

    struct Subscription: Decodable {
        var username: String?
        var months: Int?
    }

    struct GiftedSubscriptions: Decodable {
        var giftedUsernames: [String]?
        var gifterUsername: String?

        enum CodingKeys: String, CodingKey {
            case giftedUsernames = "gifted_usernames", gifterUsername = "gifter_username"
        }
    }

    private var sequence = 0

    mutating func map(_ message: PusherMessage) -> Action {
        guard message.event.hasPrefix(Self.eventPrefix) else { return .unknown("an unknown event \(message.event)") }
        let kind = String(message.event.dropFirst(Self.eventPrefix.count))
        do throws(PusherMessage.ParseError) {
            switch kind {
            case "ChatMessageEvent":
                return comment(try message.decode(ChatMessage.self))
            case "MessageDeletedEvent":
                guard let id = try message.decode(MessageDeleted.self).message?.id, !id.isEmpty else {
                    return .unknown("a deletion without a message id")
                }
                return .emit(.delete(id: id))
            case "UserBannedEvent":
                guard let user = try message.decode(UserBanned.self).user, let login = user.slug ?? user.username,
                      !login.isEmpty else { return .unknown("a ban without a user") }
                return .emit(.deleteUser(user: login))
            case "ChatroomClearEvent":
                return .emit(.clear)
            case "SubscriptionEvent":
                let sub = try message.decode(Subscription.self)
                let months = max(1, min(sub.months ?? 1, 1200))
                return .emit(.gift(ChatLine(id: nextID("s"), user: sub.username ?? "Kick", text: "",
                                            kind: .gift(name: months > 1 ? "サブスク / Subscription (\(months) months)"
                                                                         : "サブスク / Subscription", count: 1))))
            case "GiftedSubscriptionsEvent":
                let gift = try message.decode(GiftedSubscriptions.self)
                let count = max(1, min(gift.giftedUsernames?.count ?? 1, 100_000))
                return .emit(.gift(ChatLine(id: nextID("g"), user: gift.gifterUsername ?? "Anonymous", text: "",
                                            kind: .gift(name: "ギフトサブスク / Gifted subscriptions", count: count))))
            case "StopStreamBroadcast":
                return .ended
            default:
                return Self.ignoredKinds.contains(kind) ? .ignore : .unknown("an unknown event \(kind)")
            }
        } catch {
            return .unknown(error.reason)
        }
    }

    private mutating func comment(_ message: ChatMessage) -> Action {
        guard let sender = message.sender, let name = sender.username, !name.isEmpty else {
            return .unknown("a chat message without its sender")
        }
        let (text, emotes) = KickEmoteTags.expand(message.content ?? "")
        let id = message.id.flatMap { $0.isEmpty ? nil : $0 } ?? nextID("c")
        let badges = (sender.identity?.badges ?? []).compactMap(\.type).filter { !$0.isEmpty }
        return .emit(.comment(ChatLine(id: id, user: name, login: sender.slug, text: text.isEmpty ? "…" : text,
                                       color: sender.identity?.color.flatMap(RGBColor.init(hex:)),
                                       badges: badges, emotes: emotes)))
    }

    private mutating func nextID(_ prefix: String) -> String {
        sequence += 1
        return "kick-\(prefix)\(sequence)"
    }
}
