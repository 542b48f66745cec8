// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The JSON form of feed events (docs/feed-protocol.md): one object per line in
/// a file, per message on a WebSocket, per line of `commentbar tail`.
public enum FeedEventJSON {
    /// A decoded line: an event, or the `recording` header that anchors a file's clock.
    public enum Record: Sendable, Equatable {
        case event(FeedEvent, at: Double?)
        case recording(time: Double)
    }

    /// Counts (viewers, gifts) above this are cut to it.
    public static let maxCount = 1_000_000_000
    /// The latest `at` a file may use: about 115 days.
    public static let maxAt = 10_000_000.0

    public struct ParseError: Error, CustomStringConvertible, Sendable, Equatable {
        public var message: String
        public var description: String { message }
        public init(_ message: String) { self.message = message }
    }

    /// An emote in the wire form: `start`/`end` are Unicode scalar offsets into `text` (end exclusive).
    struct WireEmote: Codable {
        var start: Int
        var end: Int
        var name: String
        var url: String
    }

    /// The flat wire shape: every field optional; `type` says which apply.
    struct Wire: Codable {
        var type: String?
        var at: Double?
        var time: Double?
        var id: String?
        var user: String?
        var login: String?
        var text: String?
        var color: String?
        var highlight: String?
        var emotes: [WireEmote]?
        var badges: [String]?
        var kind: String?
        var gift: String?
        var count: Int?
        var on: Bool?
        var path: String?
        var url: String?
        var state: String?
        var message: String?
        /// Which stream of several an event came from (`commentbar tail` with several
        /// `--stream`s); informational: replays ignore it.
        var feed: String?
        /// When a comment or gift was sent (unix seconds), where the platform says.
        var sent: Double?
        /// A comment said before the feed connected (recent messages on join).
        var history: Bool?
    }

    public static func parse(_ line: some StringProtocol) throws(ParseError) -> Record {
        try parse(data: Data(line.utf8))
    }

    public static func parse(data: Data) throws(ParseError) -> Record {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw ParseError("wrong type for \(fieldName(context.codingPath))")
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            throw ParseError("bad value for \(fieldName(context.codingPath))")
        } catch {
            throw ParseError("not a JSON object")
        }
        if let at = wire.at, !(at.isFinite && at >= 0 && at <= maxAt) {
            throw ParseError("\"at\" must be a number of seconds from 0 to \(Int(maxAt))")
        }
        guard let type = wire.type else { throw ParseError("missing \"type\"") }

        func required<T>(_ value: T?, _ name: String) throws(ParseError) -> T {
            guard let value else { throw ParseError("\(type) event needs \"\(name)\"") }
            return value
        }
        func color(_ text: String?, _ key: String) throws(ParseError) -> RGBColor? {
            guard let text, !text.isEmpty else { return nil }
            guard let value = RGBColor(hex: text) else { throw ParseError("\"\(key)\" must be #rrggbb, got \(text)") }
            return value
        }
        /// Emotes outside the text or not matching it are dropped by `ChatLine` (`Emote.valid`).
        func emotes() -> [Emote] {
            (wire.emotes ?? []).prefix(Emote.maxPerRow * 4).compactMap { item in
                guard item.start >= 0, item.end > item.start, item.end <= TextSanitizer.maxTextScalars else { return nil }
                return Emote(range: item.start..<item.end, name: item.name, url: item.url)
            }
        }
        func sent() throws(ParseError) -> Double? {
            guard let value = wire.sent else { return nil }
            guard value.isFinite, value >= 0, value <= ChatLine.latestSentAt else {
                throw ParseError("\"sent\" must be unix seconds from 0 to \(Int(ChatLine.latestSentAt))")
            }
            return value
        }
        let event: FeedEvent
        switch type {
        case "recording":
            let time = try required(wire.time, "time")
            guard time.isFinite else { throw ParseError("\"time\" must be a number") }
            return .recording(time: time)
        case "start":
            let time = try required(wire.time, "time")
            guard time.isFinite else { throw ParseError("\"time\" must be a number") }
            event = .start(time: time)
        case "comment":
            let kind: ChatLine.Kind
            switch wire.kind ?? "comment" {
            case "comment": kind = .comment
            case "action": kind = .action
            case "notice": kind = .notice
            case let other: throw ParseError("unknown comment kind \"\(other)\"")
            }
            event = .comment(ChatLine(id: try required(wire.id, "id"), user: wire.user ?? "", login: wire.login,
                                      text: try required(wire.text, "text"), color: try color(wire.color, "color"),
                                      badges: wire.badges ?? [], kind: kind,
                                      highlight: try color(wire.highlight, "highlight"), emotes: emotes(),
                                      sentAt: try sent(), isHistory: wire.history ?? false))
        case "gift":
            let count = min(wire.count ?? 1, maxCount)
            guard count >= 0 else { throw ParseError("\"count\" must be >= 0") }
            let name = try required(wire.gift, "gift")
            event = .gift(ChatLine(id: try required(wire.id, "id"), user: try required(wire.user, "user"),
                                   login: wire.login, text: wire.text ?? "", color: try color(wire.color, "color"),
                                   badges: wire.badges ?? [], kind: .gift(name: name, count: count),
                                   highlight: try color(wire.highlight, "highlight"), emotes: emotes(),
                                   sentAt: try sent(), isHistory: wire.history ?? false))
        case "viewers":
            let count = try required(wire.count, "count")
            guard count >= 0 else { throw ParseError("\"count\" must be >= 0") }
            event = .viewers(min(count, maxCount))
        case "mic":
            event = .mic(on: try required(wire.on, "on"))
        case "delete":
            if let id = wire.id {
                event = .delete(id: id)
            } else if let user = wire.user {
                event = .deleteUser(user: user)
            } else {
                throw ParseError("delete event needs \"id\" or \"user\"")
            }
        case "clear":
            event = .clear
        case "channel":
            let id = try required(wire.id, "id")
            guard let channel = FeedEvent.channelID(id) else {
                throw ParseError("\"id\" of a channel event must be 1 to \(TextSanitizer.maxIDScalars) characters without spaces or controls")
            }
            event = .channel(id: channel)
        case "avatar":
            event = .avatar(try ImageReference.parse(try required(wire.url ?? wire.path, "url")))
        case "background":
            event = .background(try ImageReference.parse(try required(wire.url ?? wire.path, "url")))
        case "status":
            switch try required(wire.state, "state") {
            case "connecting": event = .status(.connecting)
            case "live": event = .status(.live)
            case "reconnecting": event = .status(.reconnecting(reason: wire.message ?? ""))
            case "error": event = .status(.error(message: wire.message ?? ""))
            case "paused": event = .status(.paused)
            case "waiting": event = .status(.waiting(reason: wire.message ?? ""))
            case "ended": event = .status(.ended(reason: wire.message ?? ""))
            case let other: throw ParseError("unknown status state \"\(other)\"")
            }
        default:
            throw ParseError("unknown event type \"\(type)\"")
        }
        return .event(event, at: wire.at)
    }

    /// One compact JSON line (no newline) for an event, as `commentbar tail` prints it;
    /// `feed` names the stream it came from when there are several.
    public static func encode(_ record: Record, feed: String? = nil) -> String {
        var wire = Wire()
        wire.feed = feed
        switch record {
        case .recording(let time):
            wire.type = "recording"
            wire.time = time
        case .event(let event, let at):
            wire.at = at
            switch event {
            case .start(let time): wire.type = "start"; wire.time = time
            case .comment(let line), .gift(let line):
                wire.id = line.id
                wire.user = line.user
                wire.login = line.login
                wire.color = line.color?.hex
                wire.highlight = line.highlight?.hex
                wire.emotes = line.emotes.isEmpty ? nil : line.emotes.map {
                    WireEmote(start: $0.range.lowerBound, end: $0.range.upperBound, name: $0.name, url: $0.url)
                }
                wire.badges = line.badges.isEmpty ? nil : line.badges
                wire.sent = line.sentAt
                wire.history = line.isHistory ? true : nil
                switch line.kind {
                case .comment: wire.type = "comment"; wire.text = line.text
                case .action: wire.type = "comment"; wire.kind = "action"; wire.text = line.text
                case .notice: wire.type = "comment"; wire.kind = "notice"; wire.text = line.text
                case .gift(let name, let count):
                    wire.type = "gift"; wire.gift = name; wire.count = count
                    wire.text = line.text.isEmpty ? nil : line.text
                }
            case .viewers(let count): wire.type = "viewers"; wire.count = count
            case .mic(let on): wire.type = "mic"; wire.on = on
            case .delete(let id): wire.type = "delete"; wire.id = id
            case .deleteUser(let user): wire.type = "delete"; wire.user = user
            case .clear: wire.type = "clear"
            case .channel(let id): wire.type = "channel"; wire.id = id
            case .avatar(let image): wire.type = "avatar"; wire.set(image)
            case .background(let image): wire.type = "background"; wire.set(image)
            case .status(let status), .relayStatus(let status):
                wire.type = "status"
                wire.state = status.name
                wire.message = status.detail.isEmpty ? nil : status.detail
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(wire) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    fileprivate static func fieldName(_ path: [any CodingKey]) -> String {
        path.last.map { "\"\($0.stringValue)\"" } ?? "the value"
    }
}

extension FeedEventJSON.Wire {
    /// Files keep the `path` key they always had; remote images use `url`.
    mutating func set(_ image: ImageReference?) {
        switch image {
        case .file(let path): self.path = path
        case .remote(let url): self.url = url
        case nil: path = ""
        }
    }
}
