// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// One stream of the bar as the event API names it: the service id, the stream's id on it (the
/// channel, once the feed names the channel the stream belongs to), and the service's colour
/// (the page's mark beside a name).
public struct ControlStream: Sendable, Equatable {
    public var platform: String
    public var channel: String
    public var colour: String

    public init(platform: String, channel: String, colour: String) {
        self.platform = platform
        self.channel = channel
        self.colour = colour
    }

    /// Events of a stream the server was not told of (none yet).
    static let unknown = ControlStream(platform: "", channel: "", colour: PlatformBadge.plain.color.hex)
}

/// What a feed event the bar applied is on the event API: comments and gifts only as the bar
/// showed them (a filtered row is not sent), moderation, viewers and the connection's state.
enum ControlEventMapping {
    /// The event's body and, for a comment or gift, the row (kept for pinning); nil: not sent.
    /// `event` names rows as the bar does (`RowMapping.rowEvent`).
    static func body(for event: FeedEvent, shown: ChatLine?, stream: ControlStream,
                     now: Double) -> (ControlEvent.Body, ChatLine?)? {
        switch event {
        case .comment:
            guard let shown else { return nil }
            return (.comment(comment(shown, stream: stream, now: now)), shown)
        case .gift:
            guard let shown else { return nil }
            return (.gift(comment(shown, stream: stream, now: now)), shown)
        case .delete(let id):
            return (.delete(.init(id: id, platform: stream.platform, channel: stream.channel)), nil)
        case .deleteUser(let user):
            return (.ban(.init(user: user, platform: stream.platform, channel: stream.channel)), nil)
        case .clear:
            return (.clear(.init(platform: stream.platform, channel: stream.channel)), nil)
        case .viewers(let count):
            let count = min(max(count, 0), FeedEventJSON.maxCount)
            return (.viewers(.init(platform: stream.platform, channel: stream.channel, count: count)), nil)
        case .status(let status):
            let status = status.sanitized
            return (.status(.init(platform: stream.platform, channel: stream.channel, state: status.name,
                                  detail: status.detail)), nil)
        case .start, .mic, .avatar, .background, .relayStatus, .channel:
            // A named channel renames the stream (`ControlHook.heard`), announced as its own event.
            return nil
        }
    }

    /// Who wrote a row, as `/api/viewer` names them: the login where the platform has one.
    static func user(of line: ChatLine) -> String { line.login ?? line.user }

    /// The viewer memory's nickname and 初見 mark come with the row as the bar shows it.
    static func comment(_ line: ChatLine, stream: ControlStream, now: Double) -> ControlEvent.Comment {
        var kind = "comment"
        var gift: String?
        var count: Int?
        switch line.kind {
        case .comment: break
        case .action: kind = "action"
        case .notice: kind = "notice"
        case .gift(let name, let given):
            kind = "gift"
            gift = name
            count = min(max(given, 0), FeedEventJSON.maxCount)
        }
        return ControlEvent.Comment(
            id: line.id, platform: stream.platform, channel: stream.channel, platformColour: stream.colour,
            user: user(of: line), name: line.user, nickname: line.nickname,
            firstTime: line.marks.contains { $0.kind == .firstTime },
            welcomeBack: line.marks.contains { $0.kind == .back },
            text: line.text,
            emotes: line.emotes.map { .init(start: $0.range.lowerBound, end: $0.range.upperBound, name: $0.name, url: $0.url) },
            colour: line.color?.hex, badges: line.badges, kind: kind, gift: gift, count: count,
            history: line.isHistory, time: line.sentAt ?? now)
    }
}
