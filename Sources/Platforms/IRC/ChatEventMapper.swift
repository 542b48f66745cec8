// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// Turns the chat lines of one channel (PRIVMSG, USERNOTICE, CLEARMSG, CLEARCHAT, NOTICE)
/// into bar events. Plain IRC and Twitch share it: Twitch-only tags are simply absent on IRC.
///
/// Choices a streamer would expect (see docs/feed-protocol.md):
/// - a cheer (`bits` > 0) is a gift row "Bits × n" with the message as its text;
/// - `submysterygift` is one gift row "Gift Sub × n"; the `subgift` lines Twitch sends for each
///   recipient of that batch (they carry `msg-param-community-gift-id`) are left out so one
///   gift of 50 subs is one row, not 51; a single `subgift` is a gift row "Gift Sub × 1";
/// - `sub`, `resub`, `raid` and unknown USERNOTICE kinds are notice rows with `system-msg`
///   (and the user's own message after it, if any).
struct ChatEventMapper {
    static let bitsGiftName = "Bits"
    static let subGiftName = "Gift Sub"
    /// Between Twitch's system message and the user's own in a notice row.
    static let noticeSeparator = " — "

    /// `#channel`, compared case-insensitively with each line's target.
    let channel: String
    /// Shows channel NOTICEs from users as notice rows (plain IRC; Twitch's are moderation chatter).
    let showsUserNotices: Bool

    init(channel: String, showsUserNotices: Bool) {
        self.channel = channel.lowercased()
        self.showsUserNotices = showsUserNotices
    }

    enum Outcome: Equatable {
        case event(FeedEvent)
        /// Not for the bar (another target, a CTCP request, a line of a gift batch).
        case ignored
        /// Missing what this command must have; logged and skipped.
        case malformed(String)
    }

    func map(_ message: IRCMessage) -> Outcome {
        switch message.command {
        case "PRIVMSG": return privmsg(message)
        case "NOTICE": return notice(message)
        case "USERNOTICE": return usernotice(message)
        case "CLEARMSG": return clearmsg(message)
        case "CLEARCHAT": return clearchat(message)
        default: return .ignored
        }
    }

    private func isOurChannel(_ message: IRCMessage) -> Bool {
        message.params.first?.lowercased() == channel
    }

    private func privmsg(_ message: IRCMessage) -> Outcome {
        guard message.params.count >= 2 else { return .malformed("PRIVMSG without text") }
        guard isOurChannel(message) else { return .ignored }
        guard let login = message.sourceNick else { return .malformed("PRIVMSG without a sender") }
        var text = message.params[1]
        var kind = ChatLine.Kind.comment
        if text.hasPrefix("\u{1}") {
            // CTCP: `\x01ACTION waves\x01` is /me; other CTCP requests are not chat.
            var body = text.dropFirst()
            if body.hasSuffix("\u{1}") { body = body.dropLast() }
            guard body == "ACTION" || body.hasPrefix("ACTION ") else { return .ignored }
            text = String(body.dropFirst("ACTION".count).drop(while: { $0 == " " }))
            kind = .action
        }
        let tags = message.tags
        // Twitch counts the ranges in the message as shown, without the CTCP wrapper.
        let emotes = TwitchEmoteTag.emotes(tags["emotes"], in: text)
        if let bits = TwitchTags.positiveCount(tags["bits"]) {
            return .event(.gift(line(message, login: login, text: text, kind: .gift(name: Self.bitsGiftName, count: bits),
                                     emotes: emotes)))
        }
        return .event(.comment(line(message, login: login, text: text, kind: kind, emotes: emotes)))
    }

    private func notice(_ message: IRCMessage) -> Outcome {
        guard showsUserNotices, message.params.count >= 2, isOurChannel(message),
              let source = message.source, source.contains("!"), let login = message.sourceNick else { return .ignored }
        return .event(.comment(line(message, login: login, text: message.params[1], kind: .notice)))
    }

    private func usernotice(_ message: IRCMessage) -> Outcome {
        guard isOurChannel(message) else { return .ignored }
        let tags = message.tags
        guard let kind = TwitchTags.text(tags["msg-id"]) else { return .malformed("USERNOTICE without msg-id") }
        let login = TwitchTags.text(tags["login"]) ?? message.sourceNick ?? ""
        let system = TwitchTags.text(tags["system-msg"])
        let userText = message.params.count >= 2 ? message.params[1] : nil
        switch kind {
        case "subgift" where tags["msg-param-community-gift-id"] != nil:
            return .ignored
        case "subgift":
            return .event(.gift(line(message, login: login, text: system ?? "", kind: .gift(name: Self.subGiftName, count: 1))))
        case "submysterygift":
            let count = TwitchTags.positiveCount(tags["msg-param-mass-gift-count"]) ?? 1
            return .event(.gift(line(message, login: login, text: system ?? "", kind: .gift(name: Self.subGiftName, count: count))))
        default:
            let parts = [system, userText].compactMap { $0 }.filter { !$0.isEmpty }
            let text = parts.joined(separator: Self.noticeSeparator)
            guard !text.isEmpty else { return .malformed("USERNOTICE \(kind) without text") }
            // The tag's ranges are in the user's message, which comes last in the row.
            var emotes: [Emote] = []
            if let userText, !userText.isEmpty {
                let before = text.unicodeScalars.count - userText.unicodeScalars.count
                emotes = TwitchEmoteTag.emotes(tags["emotes"], in: userText, offset: before)
            }
            return .event(.comment(line(message, login: login, text: text, kind: .notice, emotes: emotes)))
        }
    }

    private func clearmsg(_ message: IRCMessage) -> Outcome {
        guard isOurChannel(message) else { return .ignored }
        guard let id = TwitchTags.text(message.tags["target-msg-id"]) else { return .malformed("CLEARMSG without target-msg-id") }
        return .event(.delete(id: id))
    }

    private func clearchat(_ message: IRCMessage) -> Outcome {
        guard isOurChannel(message) else { return .ignored }
        if message.params.count >= 2, !message.params[1].isEmpty {
            return .event(.deleteUser(user: message.params[1]))
        }
        return .event(.clear)
    }

    private func line(_ message: IRCMessage, login: String, text: String, kind: ChatLine.Kind,
                      emotes: [Emote] = []) -> ChatLine {
        let tags = message.tags
        // Twitch's `id`, IRCv3's `msgid`, else a fresh one (a repeated id would replace a line).
        let id = TwitchTags.text(tags["id"]) ?? TwitchTags.text(tags["msgid"]) ?? UUID().uuidString
        let name = TwitchTags.text(tags["display-name"].map { $0.trimmingWhitespace() }) ?? login
        return ChatLine(id: id, user: name, login: login.isEmpty ? nil : login, text: text,
                        color: tags["color"].flatMap(RGBColor.init(hex:)), badges: TwitchTags.badges(tags["badges"]),
                        kind: kind, emotes: emotes,
                        // Twitch's own "first message in this channel" (the viewer memory's first-time badge).
                        platformFirstMessage: tags["first-msg"] == "1")
    }
}
