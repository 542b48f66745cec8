// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// `commentbar log export`: a stream's chat as CSV or JSON lines (everything the log kept), or as
/// SRT or ASS subtitles (what the bar showed) timed to OBS's recording of the stream when there
/// was one, else to the stream's start, so the chat can be shown with or burned into the VOD.
public enum ChatExport {
    public enum Format: String, Sendable, CaseIterable {
        case csv, jsonl, srt, ass
    }

    /// How long each line stays on screen in the subtitles.
    public static let lineSeconds = 5.0

    /// Subtitle times count from here: the first OBS recording of the stream's sessions (the
    /// chosen session's first), else the stream's earliest start.
    public static func timeBase(session: SessionInfo, streamSessions: [SessionInfo]) -> Double {
        session.recordingStart ?? streamSessions.compactMap(\.recordingStart).min()
            ?? (streamSessions.map(\.startedAt) + [session.startedAt]).min() ?? session.startedAt
    }

    /// Writes `messages` in `format`, piece by piece, through `write`. `filters`: the bar's NG
    /// words as they are now, applied to nicknames everywhere (masked), and in the subtitles to
    /// the rows as the bar applies them (masked, or the row left out when they hide rows).
    public static func write(_ messages: [LoggedMessage], format: Format, timeBase: Double, filters: ChatFilters = .none,
                             to write: (String) -> Void) {
        let shown = messages.compactMap { subtitle($0, filters) }
        let messages = messages.map { $0.maskingNickname(filters) }
        switch format {
        case .csv:
            write("time,platform,channel,id,user,name,nickname,kind,text,gift,count,verdict,history,first_time,deleted\n")
            for message in messages { write(csvRow(message) + "\n") }
        case .jsonl:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            for message in messages {
                if let data = try? encoder.encode(ExportedMessage(message)) {
                    write(String(decoding: data, as: UTF8.self) + "\n")
                }
            }
        case .srt:
            var number = 0
            for (message, start) in subtitled(shown, timeBase: timeBase) {
                number += 1
                write("\(number)\n\(srtTime(start)) --> \(srtTime(start + lineSeconds))\n\(srtText(shownText(message)))\n\n")
            }
        case .ass:
            write(assHeader)
            for (message, start) in subtitled(shown, timeBase: timeBase) {
                write("Dialogue: 0,\(assTime(start)),\(assTime(start + lineSeconds)),Default,,0,0,0,,\(assText(shownText(message)))\n")
            }
        }
    }

    /// The row as the bar shows it with `filters`: NG words masked in its nickname and text, or
    /// nil when they hide it.
    static func subtitle(_ message: LoggedMessage, _ filters: ChatFilters) -> LoggedMessage? {
        let holdsWord = (message.nickname.map(filters.containsNGWord) ?? false)
            || (message.text.map(filters.containsNGWord) ?? false)
        if holdsWord && filters.ngMode == .hide { return nil }
        var shown = message.maskingNickname(filters)
        shown.text = message.text.map(filters.maskingNGWords)
        return shown
    }

    /// The rows the bar showed (not deleted, hidden or history), with their time from `timeBase`;
    /// rows before it (chat before the recording began) are left out.
    static func subtitled(_ messages: [LoggedMessage], timeBase: Double) -> [(LoggedMessage, Double)] {
        messages.compactMap { message in
            guard !message.deleted, !message.history, message.verdict != Verdict.hidden.rawValue, message.text != nil else {
                return nil
            }
            let offset = message.time - timeBase
            return offset >= 0 ? (message, offset) : nil
        }
    }

    /// `name: text`, as the row reads on the bar (the nickname where one is set).
    static func shownText(_ message: LoggedMessage) -> String {
        let name = message.nickname ?? message.name
        let text = message.text ?? ""
        if message.kind == "gift" {
            let gift = (message.giftName ?? "gift") + ((message.count ?? 1) > 1 ? " ×\(message.count ?? 1)" : "")
            return text.isEmpty ? "\(name): 🎁 \(gift)" : "\(name): 🎁 \(gift) \(text)"
        }
        return message.kind == "notice" ? text : "\(name): \(text)"
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// `00:01:02,345`
    static func srtTime(_ seconds: Double) -> String {
        let total = Int((max(seconds, 0) * 1000).rounded())
        return "\(Timestamps.pad(total / 3_600_000, 2)):\(Timestamps.pad(total / 60_000 % 60, 2)):"
            + "\(Timestamps.pad(total / 1000 % 60, 2)),\(Timestamps.pad(total % 1000, 3))"
    }

    /// `0:01:02.35` (centiseconds)
    static func assTime(_ seconds: Double) -> String {
        let total = Int((max(seconds, 0) * 100).rounded())
        return "\(total / 360_000):\(Timestamps.pad(total / 6000 % 60, 2)):\(Timestamps.pad(total / 100 % 60, 2))."
            + Timestamps.pad(total % 100, 2)
    }

    /// A viewer's text cannot start an override block or a line break in ASS: braces are
    /// escaped, a backslash is drawn as the look-alike ⧵.
    static func assText(_ text: String) -> String {
        replacing(oneLine(text), ["{": "\\{", "}": "\\}", "\\": "⧵"])
    }

    /// A viewer's text cannot change how SRT subtitles are drawn. SRT has no escapes, and the
    /// players that burn it in read more than SRT: ffmpeg's decoder turns `<font …>`, `<b>`…
    /// into styles and passes `{\an8}` through, and libass then runs any `{\…}` override block
    /// and `\N`. So what could start one is drawn with a look-alike that starts nothing: a
    /// backslash as ⧵, braces as full-width ｛｝, `<` as ‹.
    static func srtText(_ text: String) -> String {
        replacing(oneLine(text), ["\\": "⧵", "{": "｛", "}": "｝", "<": "‹"])
    }

    /// Scalar by scalar: a combining mark after a backslash or a brace makes another character,
    /// not another byte for libass.
    private static func replacing(_ text: String, _ table: [Unicode.Scalar: String]) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = table[scalar] { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    static let assHeader = """
        [Script Info]
        ; The chat of a stream, exported by CommentBar (commentbar log export --format ass)
        ScriptType: v4.00+
        PlayResX: 1920
        PlayResY: 1080
        WrapStyle: 0
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Noto Sans CJK JP,40,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,0,1,40,40,40,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    /// One CSV row (RFC 4180 quoting). A cell a viewer wrote that a spreadsheet would run as a
    /// formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`.
    static func csvRow(_ message: LoggedMessage) -> String {
        let cells: [String] = [
            Timestamps.iso(message.time), message.channel.platform, message.channel.channel, message.messageID, message.user,
            message.name, message.nickname ?? "", message.kind, message.text ?? "", message.giftName ?? "",
            message.count.map(String.init) ?? "", message.verdict, message.history ? "1" : "0",
            message.firstTime ? "1" : "0", message.deleted ? "1" : "0",
        ]
        return cells.map(csvCell).joined(separator: ",")
    }

    static func csvCell(_ value: String) -> String {
        var cell = value
        if let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { cell = "'" + cell }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return cell }
        return "\"" + cell.replacing("\"", with: "\"\"") + "\""
    }
}

/// A logged row as `log export --format jsonl` and `log search --json` print it.
public struct ExportedMessage: Encodable, Sendable {
    var seq: Int64
    var session: Int64
    var platform: String
    var channel: String
    var id: String
    var user: String
    var login: String?
    var name: String
    var nickname: String?
    var kind: String
    var text: String?
    var gift: String?
    var count: Int?
    var time: String
    var unix: Double
    var sentAt: Double?
    var verdict: String
    var history: Bool
    var firstTime: Bool
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case seq, session, platform, channel, id, user, login, name, nickname, kind, text, gift, count, time, unix
        case sentAt = "sent_at"
        case verdict, history
        case firstTime = "first_time"
        case deleted
    }

    /// Every key on every line, `null` where there is no value: one schema for every row.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seq, forKey: .seq)
        try c.encode(session, forKey: .session)
        try c.encode(platform, forKey: .platform)
        try c.encode(channel, forKey: .channel)
        try c.encode(id, forKey: .id)
        try c.encode(user, forKey: .user)
        try c.encode(login, forKey: .login)
        try c.encode(name, forKey: .name)
        try c.encode(nickname, forKey: .nickname)
        try c.encode(kind, forKey: .kind)
        try c.encode(text, forKey: .text)
        try c.encode(gift, forKey: .gift)
        try c.encode(count, forKey: .count)
        try c.encode(time, forKey: .time)
        try c.encode(unix, forKey: .unix)
        try c.encode(sentAt, forKey: .sentAt)
        try c.encode(verdict, forKey: .verdict)
        try c.encode(history, forKey: .history)
        try c.encode(firstTime, forKey: .firstTime)
        try c.encode(deleted, forKey: .deleted)
    }

    public init(_ message: LoggedMessage) {
        seq = message.seq
        session = message.session
        platform = message.channel.platform
        channel = message.channel.channel
        id = message.messageID
        user = message.user
        login = message.login
        name = message.name
        nickname = message.nickname
        kind = message.kind
        text = message.text
        gift = message.giftName
        count = message.count
        time = Timestamps.iso(message.time)
        unix = message.time
        sentAt = message.sentAt
        verdict = message.verdict
        history = message.history
        firstTime = message.firstTime
        deleted = message.deleted
    }
}
