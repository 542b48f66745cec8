// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The conversation with an IRC or Twitch chat server on one connection, without I/O:
/// registration (CAP, NICK/USER), joining, PING/PONG, and which lines become bar events.
/// The connection feeds it parsed lines and carries out the actions it returns.
package struct IRCSession {
    package enum Flavor: Sendable {
        /// Anonymous read-only Twitch chat: `justinfan` nick, Twitch capabilities, Twitch tags.
        case twitch
        /// Any IRCv3 server: CAP LS 302 negotiation of message-tags and server-time, guest nick.
        case irc
    }

    enum Action: Equatable {
        case send(String)
        case emit(FeedEvent)
        /// The channel is joined: the bar is live.
        case live
        /// End this connection and connect again now (Twitch RECONNECT).
        case reconnectNow(String)
        /// End this connection and connect again after the usual backoff.
        case disconnect(String)
        /// End this connection; the reason is shown as an error until a retry succeeds.
        case fail(String)
        case malformed(String)
    }

    /// The IRCv3 capabilities asked for on plain IRC, when the server offers them.
    static let wantedCapabilities = ["message-tags", "server-time"]
    static let twitchCapabilities = "twitch.tv/tags twitch.tv/commands"
    static let maxNickRetries = 8

    let flavor: Flavor
    /// `#channel` as sent in JOIN.
    let channel: String
    private(set) var nick: String
    private(set) var isJoined = false
    private var isRegistered = false
    private var offeredCapabilities: [String] = []
    private var nickRetries = 0
    private let mapper: ChatEventMapper

    init(flavor: Flavor, channel: String, nick: String? = nil) {
        self.flavor = flavor
        self.channel = channel
        self.nick = nick ?? Self.randomNick(flavor)
        mapper = ChatEventMapper(channel: channel, showsUserNotices: flavor == .irc)
    }

    static func randomNick(_ flavor: Flavor) -> String {
        switch flavor {
        case .twitch: return "justinfan\(Int.random(in: 10_000...99_999_999))"
        // Nine characters: the oldest servers' NICKLEN.
        case .irc: return "guest\(Int.random(in: 1000...9999))"
        }
    }

    /// What to send as soon as the connection is open.
    func openingLines() -> [String] {
        switch flavor {
        case .twitch:
            return ["CAP REQ :\(Self.twitchCapabilities)", "NICK \(nick)"]
        case .irc:
            // CAP LS holds registration until CAP END; servers without CAP ignore it (421).
            return ["CAP LS 302", "NICK \(nick)", "USER \(nick) 0 * :CommentBar"]
        }
    }

    mutating func handle(_ message: IRCMessage) -> [Action] {
        switch message.command {
        case "PING":
            return [.send("PONG :\(message.params.last ?? "")")]
        case "CAP":
            return capability(message)
        case "001":
            isRegistered = true
            return [.send("JOIN \(channel)")]
        case "432", "433", "436":
            return nicknameRefused(message)
        case "NICK":
            if message.sourceNick?.lowercased() == nick.lowercased(), let newNick = message.params.first {
                nick = newNick
            }
            return []
        case "JOIN":
            guard !isJoined, message.sourceNick?.lowercased() == nick.lowercased(),
                  message.params.first?.lowercased() == channel.lowercased() else { return [] }
            isJoined = true
            return [.live]
        case "366":
            // End of NAMES: some servers skip echoing JOIN to the joiner.
            guard !isJoined, message.params.count >= 2, message.params[1].lowercased() == channel.lowercased() else {
                return []
            }
            isJoined = true
            return [.live]
        case "403", "405", "471", "473", "474", "475", "476", "477":
            guard message.params.count >= 2, message.params[1].lowercased() == channel.lowercased() else { return [] }
            return [.fail("cannot join \(channel): \(message.params.last ?? message.command)")]
        case "RECONNECT":
            return [.reconnectNow("the server asked to reconnect")]
        case "ERROR":
            return [.disconnect("the server closed the link: \(message.params.last ?? "")")]
        case "NOTICE" where flavor == .twitch && !isJoined:
            // Twitch refuses a login with a NOTICE before 001.
            let text = message.params.last ?? ""
            let lowercased = text.lowercased()
            if lowercased.contains("auth") || lowercased.contains("login") {
                return [.fail("Twitch refused the login: \(text)")]
            }
            return []
        default:
            switch mapper.map(message) {
            case .event(let event): return [.emit(event)]
            case .ignored: return []
            case .malformed(let reason): return [.malformed(reason)]
            }
        }
    }

    private mutating func capability(_ message: IRCMessage) -> [Action] {
        guard flavor == .irc, message.params.count >= 3 else { return [] }
        switch message.params[1].uppercased() {
        case "LS" where !isRegistered:
            // `CAP * LS * :caps` continues on the next line; the last line has no `*`.
            let isContinued = message.params.count >= 4 && message.params[2] == "*"
            let names = (message.params.last ?? "").split(separator: " ").map { item in
                String(item.split(separator: "=", maxSplits: 1).first ?? item)
            }
            offeredCapabilities += names
            if isContinued { return [] }
            let wanted = Self.wantedCapabilities.filter(offeredCapabilities.contains)
            return wanted.isEmpty ? [.send("CAP END")] : [.send("CAP REQ :\(wanted.joined(separator: " "))")]
        case "ACK", "NAK":
            return isRegistered ? [] : [.send("CAP END")]
        default:
            return []
        }
    }

    private mutating func nicknameRefused(_ message: IRCMessage) -> [Action] {
        guard !isRegistered else { return [] }
        nickRetries += 1
        guard nickRetries <= Self.maxNickRetries else {
            return [.fail("the server refused \(nickRetries) guest nicknames: \(message.params.last ?? "")")]
        }
        nick = Self.randomNick(flavor)
        return [.send("NICK \(nick)")]
    }
}
