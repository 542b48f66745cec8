// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The Comment Bar source's settings: what a streamer sets in the OBS source
/// properties, sent to the renderer as JSON (the keys below are the OBS keys).
/// Keys, defaults and ranges come from the one settings table (`SettingsSchema`).
public struct BarSettings: Sendable, Equatable, Decodable {
    public static let sizeRange = SettingsSchema.range("width")

    public var service: String = SettingsSchema.string("service")
    public var streamID: String = SettingsSchema.string("stream_id")
    public var server: String = SettingsSchema.string("server")
    /// The streams, each a URL or `service:id`; empty: the single `service`/`stream_id`/`server`.
    public var feeds: [String] = []
    /// Secrets a platform needs (`mirrativ_session`), by setting key: passed to the feeds,
    /// never encoded, logged or drawn.
    public var credentials: [String: String] = [:]
    public var hideBots = SettingsSchema.bool("hide_bots")
    public var botNames: [String] = []
    public var hideCommands = SettingsSchema.bool("hide_commands")
    /// A comment the audience's poll, queue or giveaway counts (a vote, a join or leave word, the
    /// entry word) is kept off the rows while it counts, as `!commands` are (issue 48).
    public var hideAudienceWords = SettingsSchema.bool("hide_audience_words")
    public var ngWords: [String] = []
    public var ngMode = NGMode(rawValue: SettingsSchema.string("ng_mode")) ?? .mask
    public var hiddenUsers: [String] = []
    public var highlightNames: [String] = []
    public var highlightFirst = SettingsSchema.bool("highlight_first")
    public var width: Int = SettingsSchema.int("width")
    public var height: Int = SettingsSchema.int("height")
    public var maxLines: Int = SettingsSchema.int("max_lines")
    public var font = Font()
    /// OBS colours are 0xAABBGGRR.
    public var textColor: UInt32 = SettingsSchema.color("text_color")
    public var backgroundColor: UInt32 = SettingsSchema.color("bg_color")
    /// 0 to 100.
    public var backgroundOpacity: Int = SettingsSchema.int("bg_opacity")
    /// Corner radius of the bar's background, in pixels.
    public var cornerRadius: Int = SettingsSchema.int("corner_radius")
    /// A built-in theme's name or a theme file's path (issue 38); its look is applied when the
    /// settings are decoded (`Theme`), under what the streamer set.
    public var theme: String = SettingsSchema.string("theme")
    /// What is wrong with `theme` (nil: it was applied); the look is then the settings' own.
    public var themeProblem: String?
    /// The theme file `theme` names, not read yet: Core opens no file, the session reads it
    /// (`ThemeFiles.resolved` in serve) and applies it (`applyTheme`). Nil once applied.
    public var themeFile: String?
    public var layout = Layout(rawValue: SettingsSchema.string("layout")) ?? .bar
    public var newest = NewestEdge(rawValue: SettingsSchema.string("newest")) ?? .bottom
    /// Pixels of outline around names and messages (0: none), in `outlineColor`.
    public var textOutline: Int = SettingsSchema.int("text_outline")
    /// A shadow under names and messages, in `outlineColor`.
    public var textShadow = SettingsSchema.bool("text_shadow")
    public var outlineColor: UInt32 = SettingsSchema.color("outline_color")
    public var rowStyle = RowStyle(rawValue: SettingsSchema.string("row_style")) ?? .plain
    /// Seconds a row stays before it fades out (0: never).
    public var fadeAfter: Int = SettingsSchema.int("fade_after")
    public var enter = EnterAnimation(rawValue: SettingsSchema.string("enter")) ?? .instant
    public var nameColors = NameColors(rawValue: SettingsSchema.string("name_colors")) ?? .viewer
    /// How fast the ticker's comments travel, pixels a second.
    public var tickerSpeed: Int = SettingsSchema.int("ticker_speed")
    public var showClock = SettingsSchema.bool("show_clock")
    public var showViewers = SettingsSchema.bool("show_viewers")
    public var showGifts = SettingsSchema.bool("show_gifts")
    public var showMic = SettingsSchema.bool("show_mic")
    /// What the clock counts from, and so what the on-air badge follows.
    public var clockSource = ClockSource(rawValue: SettingsSchema.string("clock_source")) ?? .auto
    /// The OBS audio source whose state the mic badge shows ("" = OBS's first Mic/Aux channel);
    /// the shim watches it, the renderer only gets its state.
    public var micSource: String = SettingsSchema.string("mic_source")
    /// A level meter beside the mic badge.
    public var micMeter = SettingsSchema.bool("mic_meter")
    public var showAvatar = SettingsSchema.bool("show_avatar")
    /// Chat badges (broadcaster, moderator, …) as small icons before the name.
    public var showBadges = SettingsSchema.bool("show_badges")
    /// Animated emotes move (at most at the bar's frame rate); off: their first frame.
    public var animateEmotes = SettingsSchema.bool("animate_emotes")
    /// Local files: the streamer chose them in the properties.
    public var avatarPath: String = SettingsSchema.string("avatar_path")
    public var backgroundPath: String = SettingsSchema.string("background_path")
    /// The most frames a second the renderer makes.
    public var maxFPS: Int = SettingsSchema.int("fps")
    /// A poll's burst of comments is shown spread by their send times (`ChatFlow`).
    public var paceBursts = SettingsSchema.bool("pace_bursts")
    /// Seconds every comment waits before it is shown, so moderators can delete it unseen.
    public var delaySeconds: Int = SettingsSchema.int("delay_seconds")
    /// With several streams: one summed viewer count, or one per stream.
    public var viewersMode = ViewersMode(rawValue: SettingsSchema.string("viewers_mode")) ?? .sum
    /// The overlay: the bar on the streamer's own screen too, above a full-screen game.
    public var overlay = SettingsSchema.bool("overlay")
    public var overlayCorner = OverlayCorner(rawValue: SettingsSchema.string("overlay_corner")) ?? .bottomRight
    /// Percent of the source's size.
    public var overlayScale: Int = SettingsSchema.int("overlay_scale")
    public var overlayOpacity: Int = SettingsSchema.int("overlay_opacity")
    /// Pixels from the monitor's edges.
    public var overlayMargin: Int = SettingsSchema.int("overlay_margin")

    /// The viewer memory (issue 29): the chat and its viewers kept in a SQLite file per user.
    /// Off: nothing is written or read.
    public var remember = SettingsSchema.bool("remember")
    /// The memory's file; empty: `$XDG_DATA_HOME/comment-bar/chat.sqlite3`.
    public var logPath: String = SettingsSchema.string("log_path")
    /// Messages older than this many days are removed from the log (0: kept for ever)…
    public var logKeepDays: Int = SettingsSchema.int("log_keep_days")
    /// …and the oldest ones while it is larger than this many megabytes (0: no cap).
    public var logMaxMB: Int = SettingsSchema.int("log_max_mb")
    /// The badge on a viewer's first comment ever on the channel; empty: by OBS's language
    /// ("初見" in Japanese, "first" otherwise).
    public var firstTimeLabel: String = SettingsSchema.string("first_time_label")
    /// A viewer back after this many days gets a "back" badge; 0: never.
    public var welcomeBackDays: Int = SettingsSchema.int("welcome_back_days")
    /// `off`, `chime`, or the path of a WAV/OGG file the streamer picked: played on a first comment.
    public var firstTimeSound: String = SettingsSchema.string("first_time_sound")
    /// A comment ending in `@name` sets the viewer's nickname on the channel.
    public var nicknamesFromChat = SettingsSchema.bool("nicknames_from_chat")
    /// The viewer's comment number on the channel beside the row (`#12`).
    public var showCounts = SettingsSchema.bool("show_counts")
    /// The control page and event API on loopback (issue 30). Off: no socket, no thread.
    public var control = SettingsSchema.bool("control")
    public var controlPort: Int = SettingsSchema.int("control_port")
    /// How long a pinned comment stays; 0: until unpinned.
    public var pinSeconds: Int = SettingsSchema.int("pin_seconds")

    /// The doors to other tools (issue 39). Streamer.bot's or Cuebot's DoAction: where
    /// (`http://HOST:PORT/DoAction`, `ws://HOST:PORT/`, `udp://HOST:PORT`; empty: off), which events
    /// run which action (`EVENT=Action name`), and at most how many a second.
    public var actionsTarget: String = SettingsSchema.string("actions_target")
    public var actions: [String] = []
    public var actionsPerSecond: Int = SettingsSchema.int("actions_per_second")
    /// A OneComme-compatible server for OneComme's templates, on loopback. Off: no socket, no thread.
    public var onecomme = SettingsSchema.bool("onecomme")
    public var onecommePort: Int = SettingsSchema.int("onecomme_port")
    /// HTML5コメジェネ's comment.xml, written here; empty: off.
    public var commentXMLPath: String = SettingsSchema.string("comment_xml_path")

    /// The secret settings, read into `credentials` and never written back out.
    public enum SecretKeys: String, CodingKey, CaseIterable {
        case mirrativSession = "mirrativ_session"
        /// Streamer.bot's WebSocket server password (the `actions_target` of `ws://`).
        case actionsPassword = "actions_password"
    }

    /// Values the renderer did not know (a newer shim's choice, a hand-edited scene file), each
    /// with the default used instead: `serve` logs them, as the shim does.
    public var unknownChoices: [String] = []

    public init() {}

    /// Missing or mistyped keys keep their defaults; values are clamped to what the
    /// renderer can draw, so no setting can make it fail. One loop over `SettingField.all`.
    public init(from decoder: any Decoder) throws {
        let object = try SettingsObject(decoder)
        var s = BarSettings()
        var unknown: [String] = []
        for field in SettingField.all { field.decode(object, &s, &unknown) }
        if let secrets = try? decoder.container(keyedBy: SecretKeys.self) {
            for key in SecretKeys.allCases {
                if let text = (try? secrets.decodeIfPresent(String.self, forKey: key)) ?? nil, !text.isEmpty {
                    s.credentials[key.rawValue] = String(decoding: text.utf8.prefix(4096), as: UTF8.self)
                }
            }
        }
        // The theme fills in the look under what the source's own settings changed.
        if let theme = Self.themeOverride.flatMap({ decoder.userInfo[$0] as? String }) { s.theme = theme }
        s.unknownChoices = unknown
        switch Theme.choice(s.theme) {
        case .look(let look): s.applyTheme(.success(look))
        case .problem(let problem): s.applyTheme(.failure(problem))
        case .file(let path): s.themeFile = path
        }
        self = s.clamped()
    }

    /// Every number within the settings table's range, and a font face to draw with: where settings
    /// come in (decoding, a theme's look), so the renderer takes them as they are.
    public func clamped() -> BarSettings {
        var s = self
        for field in SettingField.all { field.clamp?(&s) }
        if s.font.face.trimmingWhitespace().isEmpty { s.font.face = Font().face }
        return s
    }

    /// Decodes the settings object the shim sends; bad JSON is an error with a message.
    /// `theme`: a theme used instead of the object's own (`commentbar render --theme`).
    public static func decode(json: Data, theme: String? = nil) throws -> BarSettings {
        let decoder = JSONDecoder()
        if let theme, let key = themeOverride { decoder.userInfo[key] = theme }
        return try decoder.decode(BarSettings.self, from: json)
    }
}
