// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Live-chat actions → bar events. Rows carry the author's channel id as `login`, so a
/// removal of all of an author's messages (`deleteUser`) finds them.
enum ChatActionMapper {
    /// Shown for a message YouTube replaced by a placeholder (held for review, retracted).
    static let placeholderText = "[message hidden]"
    /// Shown for a comment whose runs had no text at all.
    static let emptyText = "…"
    /// YouTube's membership green, for new-member and milestone rows.
    static let membershipColor = RGBColor(red: 0x0F, green: 0x9D, blue: 0x58)

    static func events(for action: ChatAction) -> [FeedEvent] {
        if let item = action.addChatItemAction?.item {
            return line(for: item).map { [$0] } ?? []
        }
        if let replace = action.replaceChatItemAction, let target = replace.targetItemId.map(normalizedID), !target.isEmpty {
            var replacement = replace.replacementItem.flatMap(line(for:))
            replacement = replacement.map { event in reidentified(event, as: target) }
            return [replacement ?? .comment(ChatLine(id: target, user: "", text: placeholderText))]
        }
        if let target = (action.markChatItemAsDeletedAction ?? action.removeChatItemAction)?.targetItemId, !target.isEmpty {
            return [.delete(id: normalizedID(target))]
        }
        if let author = (action.markChatItemsByAuthorAsDeletedAction ?? action.removeChatItemByAuthorAction)?.externalChannelId,
           !author.isEmpty {
            return [.deleteUser(user: author)]
        }
        return []
    }

    /// One row for a chat item, or nil for items that are not rows (placeholders, system blurbs).
    static func line(for item: ChatItem) -> FeedEvent? {
        if let text = item.liveChatTextMessageRenderer {
            let message = text.message?.rendered ?? (text: "", emotes: [])
            return .comment(row(text, text: message.text.isEmpty ? emptyText : message.text, emotes: message.emotes))
        }
        if let paid = item.liveChatPaidMessageRenderer {
            let tier = color(paid.bodyBackgroundColor ?? paid.headerBackgroundColor)
            let message = paid.message?.rendered ?? (text: "", emotes: [])
            return .gift(row(paid, text: message.text, kind: .gift(name: amount(paid), count: 1), highlight: tier,
                             emotes: message.emotes))
        }
        if let sticker = item.liveChatPaidStickerRenderer {
            let tier = color(sticker.moneyChipBackgroundColor ?? sticker.backgroundColor)
            let label = sticker.sticker?.accessibility?.accessibilityData?.label ?? ""
            return .gift(row(sticker, text: label, kind: .gift(name: amount(sticker), count: 1), highlight: tier))
        }
        if let membership = item.liveChatMembershipItemRenderer {
            // New member: the subtext ("Welcome to …!"); milestone: "Member for 6 months" and the message.
            let headline = [membership.headerPrimaryText?.plain, membership.headerSubtext?.plain]
                .compactMap { $0 }.first { !$0.isEmpty } ?? "New member"
            let message = membership.message?.rendered ?? (text: "", emotes: [])
            guard !message.text.isEmpty else {
                return .comment(row(membership, text: headline, kind: .notice, highlight: membershipColor))
            }
            let prefix = "\(headline) — "
            let shift = prefix.unicodeScalars.count
            let emotes = message.emotes.map { emote in
                Emote(range: (emote.range.lowerBound + shift)..<(emote.range.upperBound + shift), name: emote.name, url: emote.url)
            }
            return .comment(row(membership, text: prefix + message.text, kind: .notice, highlight: membershipColor,
                                emotes: emotes))
        }
        if let purchase = item.liveChatSponsorshipsGiftPurchaseAnnouncementRenderer,
           var header = purchase.header?.liveChatSponsorshipsHeaderRenderer {
            header.id = purchase.id ?? header.id
            header.authorExternalChannelId = purchase.authorExternalChannelId ?? header.authorExternalChannelId
            let text = header.primaryText?.plain ?? ""
            return .gift(row(header, text: text, kind: .gift(name: "Gift memberships", count: firstNumber(in: text) ?? 1),
                             highlight: membershipColor))
        }
        return nil
    }

    private static func row(_ renderer: MessageRenderer, text: String, kind: ChatLine.Kind = .comment,
                            highlight: RGBColor? = nil, emotes: [Emote] = []) -> ChatLine {
        let channel = renderer.authorExternalChannelId.flatMap { $0.isEmpty ? nil : $0 }
        return ChatLine(id: normalizedID(renderer.id ?? ""), user: renderer.authorName?.plain ?? "", login: channel,
                        text: text, badges: badges(renderer), kind: kind, highlight: highlight, emotes: emotes)
    }

    private static func reidentified(_ event: FeedEvent, as id: String) -> FeedEvent {
        switch event {
        case .comment(var line): line.id = id; return .comment(line)
        case .gift(var line): line.id = id; return .gift(line)
        default: return event
        }
    }

    /// YouTube's badges in Twitch's names: owner → broadcaster; a member's badge has a
    /// custom picture and no icon.
    static func badges(_ renderer: MessageRenderer) -> [String] {
        (renderer.authorBadges ?? []).compactMap { badge in
            guard let badge = badge.value?.liveChatAuthorBadgeRenderer else { return nil }
            switch badge.icon?.iconType {
            case "OWNER": return "broadcaster"
            case "MODERATOR": return "moderator"
            case "VERIFIED", "VERIFIED_ARTIST": return "verified"
            case nil where badge.customThumbnail != nil: return "member"
            default: return nil
            }
        }
    }

    /// The amount as YouTube shows it (`¥1,000`, `$5.00`).
    private static func amount(_ renderer: MessageRenderer) -> String {
        let text = renderer.purchaseAmountText?.plain ?? ""
        return text.isEmpty ? "Super Chat" : text
    }

    /// YouTube's colours are 0xAARRGGBB numbers.
    static func color(_ argb: Int64?) -> RGBColor? {
        guard let argb, argb >= 0, argb <= 0xFFFF_FFFF else { return nil }
        return RGBColor(red: UInt8((argb >> 16) & 0xFF), green: UInt8((argb >> 8) & 0xFF), blue: UInt8(argb & 0xFF))
    }

    /// "Gifted 5 … memberships", "Sent 1,000 …": the first number, digits and separators only.
    static func firstNumber(in text: String) -> Int? {
        let digits = text.drop { !$0.isASCII || !$0.isNumber }.prefix { ($0.isASCII && $0.isNumber) || $0 == "," }
        return Int(digits.filter { $0 != "," }.prefix(9))
    }

    /// Item ids come plain in chat items and percent-encoded (`%3D` for `=`) in some
    /// deletion and replacement targets: one form for both, so they match.
    static func normalizedID(_ id: String) -> String {
        id.contains("%") ? id.replacing("%3D", with: "=").replacing("%3d", with: "=") : id
    }
}
