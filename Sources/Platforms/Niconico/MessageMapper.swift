// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

typealias NDGRChunkedMessage = Dwango_Nicolive_Chat_Service_Edge_ChunkedMessage
typealias NDGRChunkedEntry = Dwango_Nicolive_Chat_Service_Edge_ChunkedEntry
typealias NDGRChat = Dwango_Nicolive_Chat_Data_Chat

/// One NDGR `ChunkedMessage` as the bar sees it (docs/feed-protocol.md, niconico).
enum MessageMapper {
    enum Output: Equatable {
        case event(FeedEvent)
        /// `ProgramStatus.Ended`: no more chat will come.
        case programmeEnded
        /// A message kind the bar has no use for.
        case ignored
        /// A payload this schema does not know (a newer server): skipped with a log line.
        case unknown(String)
    }

    static let emptyCommentPlaceholder = "…"

    static func map(_ chunk: NDGRChunkedMessage) -> [Output] {
        let id = chunk.meta.id.isEmpty ? nil : chunk.meta.id
        switch chunk.payload {
        case .message(let message)?:
            return [map(message, id: id)]
        case .state(let state)?:
            return map(state, id: id)
        case .signal?:
            return [.ignored]
        case nil:
            return [.unknown("a ChunkedMessage without a payload")]
        }
    }

    static func map(_ message: Dwango_Nicolive_Chat_Data_NicoliveMessage, id: String?) -> Output {
        switch message.data {
        case .chat(let chat)?, .overflowedChat(let chat)?:
            return .event(.comment(comment(chat, id: id)))
        case .gift(let gift)?:
            let item = gift.itemName.isEmpty ? "ギフト" : gift.itemName
            let user = gift.advertiserName.isEmpty ? "名無し" : gift.advertiserName
            return .event(.gift(ChatLine(
                id: id ?? "gift-\(gift.itemID)-\(user)", user: user,
                login: gift.hasAdvertiserUserID ? String(gift.advertiserUserID) : nil,
                text: gift.message, kind: .gift(name: "\(item) \(points(gift.point))", count: 1))))
        case .nicoad(let nicoad)?:
            return nicoadLine(nicoad, id: id)
        case .simpleNotification(let notification)?:
            guard let (label, text) = notificationText(notification.message) else { return .ignored }
            return notice(user: label, text: text, id: id)
        case .simpleNotificationV2(let notification)?:
            guard !notification.message.isEmpty else { return .ignored }
            return notice(user: notificationLabel(notification.type), text: notification.message, id: id)
        case .gameUpdate?, .tagUpdated?, .moderatorUpdated?, .ssngUpdated?, .forwardedChat?, .akashicMessageEvent?,
             .featuresUpdated?, .cruiseRecentContents?:
            return .ignored
        case nil:
            return .unknown("a NicoliveMessage of an unknown kind")
        }
    }

    static func map(_ state: Dwango_Nicolive_Chat_Data_NicoliveState, id: String?) -> [Output] {
        var outputs: [Output] = []
        if state.hasStatistics, state.statistics.hasViewers {
            outputs.append(.event(.viewers(Int(clamping: max(0, state.statistics.viewers)))))
        }
        if state.hasMarquee, state.marquee.hasDisplay, state.marquee.display.hasOperatorComment {
            let comment = state.marquee.display.operatorComment
            if !comment.content.isEmpty {
                outputs.append(notice(user: comment.hasName && !comment.name.isEmpty ? comment.name : "放送者",
                                      text: comment.content, id: id))
            }
        }
        if state.hasProgramStatus, state.programStatus.state == .ended {
            outputs.append(.programmeEnded)
        }
        return outputs.isEmpty ? [.ignored] : outputs
    }

    static func comment(_ chat: NDGRChat, id: String?) -> ChatLine {
        let login: String?
        let user: String
        if chat.hasRawUserID {
            login = String(chat.rawUserID)
            user = chat.hasName && !chat.name.isEmpty ? chat.name : "ID \(chat.rawUserID)"
        } else if chat.hasHashedUserID, !chat.hashedUserID.isEmpty {
            // 184 (anonymous): a hashed id such as "a:Xk3pQz…", stable for the programme.
            login = chat.hashedUserID
            user = chat.hasName && !chat.name.isEmpty ? chat.name : anonymousLabel(chat.hashedUserID)
        } else {
            login = nil
            user = chat.hasName && !chat.name.isEmpty ? chat.name : "匿名"
        }
        return ChatLine(id: id ?? "chat-\(chat.no)", user: user, login: login,
                        text: chat.content.isEmpty ? emptyCommentPlaceholder : chat.content,
                        color: color(chat.modifier), badges: chat.accountStatus == .premium ? ["premium/1"] : [])
    }

    /// "匿名 Xk3p": short, and different anonymous viewers stay apart.
    static func anonymousLabel(_ hashed: String) -> String {
        let hash = hashed.hasPrefix("a:") ? hashed.dropFirst(2) : Substring(hashed)
        return "匿名 " + hash.prefix(4)
    }

    static func points(_ value: some BinaryInteger) -> String {
        "\(value)pt"
    }

    private static func nicoadLine(_ nicoad: Dwango_Nicolive_Chat_Data_Nicoad, id: String?) -> Output {
        switch nicoad.versions {
        case .v0(let v0)?:
            guard v0.hasLatest else { return .ignored }
            let latest = v0.latest
            let user = latest.advertiser.isEmpty ? "名無し" : latest.advertiser
            return .event(.gift(ChatLine(
                id: id ?? "nicoad-\(user)-\(latest.point)", user: user,
                text: latest.hasMessage ? latest.message : "",
                kind: .gift(name: "ニコニ広告 \(points(latest.point))", count: 1))))
        case .v1(let v1)?:
            guard !v1.message.isEmpty else { return .ignored }
            return notice(user: "ニコニ広告", text: v1.message, id: id)
        case nil:
            return .unknown("a Nicoad of an unknown version")
        }
    }

    private static func notice(user: String, text: String, id: String?) -> Output {
        .event(.comment(ChatLine(id: id ?? "notice-\(text.hashValue)", user: user, text: text, kind: .notice)))
    }

    private static func notificationText(_ message: Dwango_Nicolive_Chat_Data_SimpleNotification.OneOf_Message?)
        -> (String, String)? {
        let pair: (String, String)
        switch message {
        case .emotion(let text)?: pair = ("エモーション", text)
        case .ichiba(let text)?: pair = ("ニコニコ市場", text)
        case .quote(let text)?: pair = ("引用", text)
        case .cruise(let text)?: pair = ("クルーズ", text)
        case .programExtended(let text)?: pair = ("延長", text)
        case .rankingIn(let text)?, .rankingUpdated(let text)?: pair = ("ランキング", text)
        case .visited(let text)?: pair = ("来場", text)
        case .supporterRegistered(let text)?: pair = ("サポーター", text)
        case .userLevelUp(let text)?: pair = ("レベルアップ", text)
        case nil: return nil
        }
        return pair.1.isEmpty ? nil : pair
    }

    private static func notificationLabel(_ type: Dwango_Nicolive_Chat_Data_Atoms_SimpleNotificationV2.NotificationType) -> String {
        switch type {
        case .emotion: return "エモーション"
        case .ichiba: return "ニコニコ市場"
        case .cruise: return "クルーズ"
        case .programExtended: return "延長"
        case .rankingIn: return "ランキング"
        case .visited: return "来場"
        case .supporterRegistered: return "サポーター"
        case .userLevelUp: return "レベルアップ"
        case .userFollow: return "フォロー"
        case .creatorSupportGoalAchievement: return "クリエイター支援"
        case .unknown, .UNRECOGNIZED: return "お知らせ"
        }
    }

    /// niconico's comment colours (the player's palette); white, the default, is no colour.
    static func color(_ modifier: NDGRChat.Modifier) -> RGBColor? {
        switch modifier.color {
        case .fullColor(let full)?:
            func channel(_ value: Int32) -> UInt8 { UInt8(clamping: value) }
            return RGBColor(red: channel(full.r), green: channel(full.g), blue: channel(full.b))
        case .namedColor(let name)?:
            return namedColors[name]
        case nil:
            return nil
        }
    }

    static let namedColors: [NDGRChat.Modifier.ColorName: RGBColor] = [
        .red: RGBColor(red: 0xFF, green: 0x00, blue: 0x00), .pink: RGBColor(red: 0xFF, green: 0x80, blue: 0x80),
        .orange: RGBColor(red: 0xFF, green: 0xC0, blue: 0x00), .yellow: RGBColor(red: 0xFF, green: 0xFF, blue: 0x00),
        .green: RGBColor(red: 0x00, green: 0xFF, blue: 0x00), .cyan: RGBColor(red: 0x00, green: 0xFF, blue: 0xFF),
        .blue: RGBColor(red: 0x00, green: 0x00, blue: 0xFF), .purple: RGBColor(red: 0xC0, green: 0x00, blue: 0xFF),
        .black: RGBColor(red: 0x00, green: 0x00, blue: 0x00), .white2: RGBColor(red: 0xCC, green: 0xCC, blue: 0x99),
        .red2: RGBColor(red: 0xCC, green: 0x00, blue: 0x33), .pink2: RGBColor(red: 0xFF, green: 0x33, blue: 0xCC),
        .orange2: RGBColor(red: 0xFF, green: 0x66, blue: 0x00), .yellow2: RGBColor(red: 0x99, green: 0x99, blue: 0x00),
        .green2: RGBColor(red: 0x00, green: 0xCC, blue: 0x66), .cyan2: RGBColor(red: 0x00, green: 0xCC, blue: 0xCC),
        .blue2: RGBColor(red: 0x33, green: 0x99, blue: 0xFF), .purple2: RGBColor(red: 0x66, green: 0x33, blue: 0xCC),
        .black2: RGBColor(red: 0x66, green: 0x66, blue: 0x66),
    ]
}
