// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The Comment Bar source's settings: what a streamer sets in the OBS source
/// properties, sent to the renderer as JSON (the keys below are the OBS keys).
/// Keys, defaults and ranges come from the one settings table (`SettingsSchema`).
public struct BarSettings: Sendable, Equatable, Codable {
    public struct Font: Sendable, Equatable, Codable {
        public var face: String = SettingsSchema.string("font.face")
        public var style: String = SettingsSchema.string("font.style")
        public var size: Int = SettingsSchema.int("font.size")
        public var flags: Int = SettingsSchema.int("font.flags")
        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Font()
            face = (try? c.decodeIfPresent(String.self, forKey: .face)) ?? defaults.face
            style = (try? c.decodeIfPresent(String.self, forKey: .style)) ?? defaults.style
            size = (try? c.decodeIfPresent(Int.self, forKey: .size)) ?? defaults.size
            flags = (try? c.decodeIfPresent(Int.self, forKey: .flags)) ?? defaults.flags
        }
        public var bold: Bool { flags & 1 != 0 }
        public var italic: Bool { flags & 2 != 0 }
    }

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

    public enum ViewersMode: String, Sendable, Codable, CaseIterable {
        case sum, each
    }
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

    /// The keys as OBS stores them (the settings table's keys).
    /// The secret settings, read into `credentials` and never written back out.
    public enum SecretKeys: String, CodingKey, CaseIterable {
        case mirrativSession = "mirrativ_session"
        /// Streamer.bot's WebSocket server password (the `actions_target` of `ws://`).
        case actionsPassword = "actions_password"
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case service
        case streamID = "stream_id"
        case server, feeds
        case hideBots = "hide_bots"
        case botNames = "bot_names"
        case hideCommands = "hide_commands"
        case ngWords = "ng_words"
        case ngMode = "ng_mode"
        case hiddenUsers = "hidden_users"
        case highlightNames = "highlight_names"
        case highlightFirst = "highlight_first"
        case width, height
        case maxLines = "max_lines"
        case font
        case textColor = "text_color"
        case backgroundColor = "bg_color"
        case backgroundOpacity = "bg_opacity"
        case cornerRadius = "corner_radius"
        case theme, layout, newest
        case textOutline = "text_outline"
        case textShadow = "text_shadow"
        case outlineColor = "outline_color"
        case rowStyle = "row_style"
        case fadeAfter = "fade_after"
        case enter
        case nameColors = "name_colors"
        case tickerSpeed = "ticker_speed"
        case showClock = "show_clock"
        case showViewers = "show_viewers"
        case showGifts = "show_gifts"
        case showMic = "show_mic"
        case clockSource = "clock_source"
        case micSource = "mic_source"
        case micMeter = "mic_meter"
        case showAvatar = "show_avatar"
        case showBadges = "show_badges"
        case animateEmotes = "animate_emotes"
        case avatarPath = "avatar_path"
        case backgroundPath = "background_path"
        case maxFPS = "fps"
        case paceBursts = "pace_bursts"
        case delaySeconds = "delay_seconds"
        case viewersMode = "viewers_mode"
        case overlay
        case overlayCorner = "overlay_corner"
        case overlayScale = "overlay_scale"
        case overlayOpacity = "overlay_opacity"
        case overlayMargin = "overlay_margin"
        case remember
        case logPath = "log_path"
        case logKeepDays = "log_keep_days"
        case logMaxMB = "log_max_mb"
        case firstTimeLabel = "first_time_label"
        case welcomeBackDays = "welcome_back_days"
        case firstTimeSound = "first_time_sound"
        case nicknamesFromChat = "nicknames_from_chat"
        case showCounts = "show_counts"
        case control
        case controlPort = "control_port"
        case pinSeconds = "pin_seconds"
        case actionsTarget = "actions_target"
        case actions
        case actionsPerSecond = "actions_per_second"
        case onecomme
        case onecommePort = "onecomme_port"
        case commentXMLPath = "comment_xml_path"
    }

    /// Values the renderer did not know (a newer shim's choice, a hand-edited scene file), each
    /// with the default used instead: `serve` logs them, as the shim does.
    public var unknownChoices: [String] = []

    public init() {}

    /// Missing or mistyped keys keep their defaults; values are clamped to what the
    /// renderer can draw, so no setting can make it fail.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var s = BarSettings()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) -> T {
            ((try? c.decodeIfPresent(T.self, forKey: key)) ?? nil) ?? fallback
        }
        var unknown: [String] = []
        /// One of the table's choices; anything else is the default, and said.
        func choice<T: RawRepresentable<String>>(_ key: CodingKeys, _ fallback: T) -> T {
            let text = value(key, fallback.rawValue)
            if let known = T(rawValue: text) { return known }
            let choices = SettingsSchema.choices(key.rawValue).joined(separator: ", ")
            unknown.append("\(key.rawValue): unknown value \(String(reflecting: String(text.prefix(40)))) "
                           + "(known: \(choices)); \(fallback.rawValue) is used")
            return fallback
        }
        s.service = value(.service, s.service)
        s.streamID = value(.streamID, s.streamID)
        s.server = value(.server, s.server)
        s.feeds = value(.feeds, SettingsList()).values
        s.hideBots = value(.hideBots, s.hideBots)
        s.botNames = value(.botNames, SettingsList()).values
        s.hideCommands = value(.hideCommands, s.hideCommands)
        s.ngWords = value(.ngWords, SettingsList()).values
        s.ngMode = choice(.ngMode, s.ngMode)
        s.hiddenUsers = value(.hiddenUsers, SettingsList()).values
        s.highlightNames = value(.highlightNames, SettingsList()).values
        s.highlightFirst = value(.highlightFirst, s.highlightFirst)
        s.width = value(.width, s.width)
        s.height = value(.height, s.height)
        s.maxLines = value(.maxLines, s.maxLines)
        s.font = value(.font, s.font)
        // OBS stores colours as signed 64-bit integers in JSON.
        s.textColor = UInt32(truncatingIfNeeded: value(.textColor, Int64(s.textColor)))
        s.backgroundColor = UInt32(truncatingIfNeeded: value(.backgroundColor, Int64(s.backgroundColor)))
        s.backgroundOpacity = value(.backgroundOpacity, s.backgroundOpacity)
        s.cornerRadius = value(.cornerRadius, s.cornerRadius)
        s.layout = choice(.layout, s.layout)
        s.newest = choice(.newest, s.newest)
        s.textOutline = value(.textOutline, s.textOutline)
        s.textShadow = value(.textShadow, s.textShadow)
        s.outlineColor = UInt32(truncatingIfNeeded: value(.outlineColor, Int64(s.outlineColor)))
        s.rowStyle = choice(.rowStyle, s.rowStyle)
        s.fadeAfter = value(.fadeAfter, s.fadeAfter)
        s.enter = choice(.enter, s.enter)
        s.nameColors = choice(.nameColors, s.nameColors)
        s.tickerSpeed = value(.tickerSpeed, s.tickerSpeed)
        s.showClock = value(.showClock, s.showClock)
        s.showViewers = value(.showViewers, s.showViewers)
        s.showGifts = value(.showGifts, s.showGifts)
        s.showMic = value(.showMic, s.showMic)
        s.clockSource = choice(.clockSource, s.clockSource)
        s.micSource = value(.micSource, s.micSource)
        s.micMeter = value(.micMeter, s.micMeter)
        s.showAvatar = value(.showAvatar, s.showAvatar)
        s.showBadges = value(.showBadges, s.showBadges)
        s.animateEmotes = value(.animateEmotes, s.animateEmotes)
        s.avatarPath = value(.avatarPath, s.avatarPath)
        s.backgroundPath = value(.backgroundPath, s.backgroundPath)
        s.maxFPS = value(.maxFPS, s.maxFPS)
        s.paceBursts = value(.paceBursts, s.paceBursts)
        s.delaySeconds = value(.delaySeconds, s.delaySeconds)
        s.viewersMode = choice(.viewersMode, s.viewersMode)
        s.overlay = value(.overlay, s.overlay)
        s.overlayCorner = choice(.overlayCorner, s.overlayCorner)
        s.overlayScale = value(.overlayScale, s.overlayScale)
        s.overlayOpacity = value(.overlayOpacity, s.overlayOpacity)
        s.overlayMargin = value(.overlayMargin, s.overlayMargin)
        s.remember = value(.remember, s.remember)
        s.logPath = value(.logPath, s.logPath)
        s.logKeepDays = value(.logKeepDays, s.logKeepDays)
        s.logMaxMB = value(.logMaxMB, s.logMaxMB)
        s.firstTimeLabel = value(.firstTimeLabel, s.firstTimeLabel)
        s.welcomeBackDays = value(.welcomeBackDays, s.welcomeBackDays)
        s.firstTimeSound = value(.firstTimeSound, s.firstTimeSound)
        s.nicknamesFromChat = value(.nicknamesFromChat, s.nicknamesFromChat)
        s.showCounts = value(.showCounts, s.showCounts)
        s.control = value(.control, s.control)
        s.controlPort = value(.controlPort, s.controlPort)
        s.pinSeconds = value(.pinSeconds, s.pinSeconds)
        s.actionsTarget = String(value(.actionsTarget, s.actionsTarget).prefix(2048))
        s.actions = value(.actions, SettingsList()).values
        s.actionsPerSecond = value(.actionsPerSecond, s.actionsPerSecond)
        s.onecomme = value(.onecomme, s.onecomme)
        s.onecommePort = value(.onecommePort, s.onecommePort)
        s.commentXMLPath = String(value(.commentXMLPath, s.commentXMLPath).prefix(4096))
        if let secrets = try? decoder.container(keyedBy: SecretKeys.self) {
            for key in SecretKeys.allCases {
                if let text = (try? secrets.decodeIfPresent(String.self, forKey: key)) ?? nil, !text.isEmpty {
                    s.credentials[key.rawValue] = String(decoding: text.utf8.prefix(4096), as: UTF8.self)
                }
            }
        }
        s = s.clamped()
        // The theme fills in the look under what the source's own settings changed.
        s.theme = (Self.themeOverride.flatMap { decoder.userInfo[$0] as? String }) ?? value(.theme, s.theme)
        s.unknownChoices = unknown
        switch Theme.choice(s.theme) {
        case .look(let look): s.applyTheme(.success(look))
        case .problem(let problem): s.applyTheme(.failure(problem))
        case .file(let path): s.themeFile = path
        }
        self = s.clamped()
    }

    /// The theme's look applied under what the source's own settings changed, or what is wrong
    /// with it said (`themeProblem`, and a line for the log); the theme file, if one waited, is read.
    public mutating func applyTheme(_ result: Result<[String: LookValue], ThemeProblem>) {
        themeFile = nil
        switch result {
        case .success(let look): applyLook(look)
        case .failure(let problem):
            themeProblem = problem.description
            unknownChoices.append("theme: \(problem)")
        }
        self = clamped()
    }

    /// A `userInfo` key of the decoder: a theme used instead of the settings' own `theme`.
    static let themeOverride = CodingUserInfoKey(rawValue: "commentbar.theme")

    /// Every number within the settings table's range.
    public func clamped() -> BarSettings {
        var s = self
        s.width = SettingsSchema.clamp(s.width, "width")
        s.height = SettingsSchema.clamp(s.height, "height")
        s.maxLines = SettingsSchema.clamp(s.maxLines, "max_lines")
        s.font.size = SettingsSchema.clamp(s.font.size, "font.size")
        s.font.flags = SettingsSchema.clamp(s.font.flags, "font.flags")
        s.backgroundOpacity = SettingsSchema.clamp(s.backgroundOpacity, "bg_opacity")
        s.cornerRadius = SettingsSchema.clamp(s.cornerRadius, "corner_radius")
        s.textOutline = SettingsSchema.clamp(s.textOutline, "text_outline")
        s.fadeAfter = SettingsSchema.clamp(s.fadeAfter, "fade_after")
        s.tickerSpeed = SettingsSchema.clamp(s.tickerSpeed, "ticker_speed")
        s.maxFPS = SettingsSchema.clamp(s.maxFPS, "fps")
        s.delaySeconds = SettingsSchema.clamp(s.delaySeconds, "delay_seconds")
        s.overlayScale = SettingsSchema.clamp(s.overlayScale, "overlay_scale")
        s.overlayOpacity = SettingsSchema.clamp(s.overlayOpacity, "overlay_opacity")
        s.overlayMargin = SettingsSchema.clamp(s.overlayMargin, "overlay_margin")
        s.welcomeBackDays = SettingsSchema.clamp(s.welcomeBackDays, "welcome_back_days")
        s.logKeepDays = SettingsSchema.clamp(s.logKeepDays, "log_keep_days")
        s.logMaxMB = SettingsSchema.clamp(s.logMaxMB, "log_max_mb")
        s.controlPort = SettingsSchema.clamp(s.controlPort, "control_port")
        s.pinSeconds = SettingsSchema.clamp(s.pinSeconds, "pin_seconds")
        s.actionsPerSecond = SettingsSchema.clamp(s.actionsPerSecond, "actions_per_second")
        s.onecommePort = SettingsSchema.clamp(s.onecommePort, "onecomme_port")
        if s.font.face.trimmingWhitespace().isEmpty { s.font.face = Font().face }
        return s
    }

    /// The filters and highlights these settings ask for.
    public var filters: ChatFilters {
        ChatFilters(hideBots: hideBots, botNames: botNames, hideCommands: hideCommands, ngWords: ngWords, ngMode: ngMode,
                    hiddenUsers: hiddenUsers, highlightNames: highlightNames, highlightFirstMessages: highlightFirst)
    }

    /// How comments flow to the bar: paced, delayed.
    public var flowOptions: ChatFlow.Options {
        ChatFlow.Options(paceBursts: paceBursts, delaySeconds: Double(delaySeconds))
    }

    /// Decodes the settings object the shim sends; bad JSON is an error with a message.
    /// `theme`: a theme used instead of the object's own (`commentbar render --theme`).
    public static func decode(json: Data, theme: String? = nil) throws -> BarSettings {
        let decoder = JSONDecoder()
        if let theme, let key = themeOverride { decoder.userInfo[key] = theme }
        return try decoder.decode(BarSettings.self, from: json)
    }
}
