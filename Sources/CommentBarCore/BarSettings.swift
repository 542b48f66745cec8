import Foundation

/// The Comment Bar source's settings: what a streamer sets in the OBS source
/// properties, sent to the renderer as JSON (the keys below are the OBS keys).
/// Defaults here must match the shim's `get_defaults`.
public struct BarSettings: Sendable, Equatable, Codable {
    public struct Font: Sendable, Equatable, Codable {
        public var face: String = "Noto Sans CJK JP"
        public var style: String = "Regular"
        public var size: Int = 26
        public var flags: Int = 0
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

    public static let sizeRange = 64...3840
    public static let services = ["demo", "file", "twitch", "irc", "websocket"]

    public var service: String = "demo"
    public var streamID: String = ""
    public var server: String = ""
    public var width: Int = 1280
    public var height: Int = 360
    public var maxLines: Int = 6
    public var font = Font()
    /// OBS colours are 0xAABBGGRR.
    public var textColor: UInt32 = 0xFFFF_FFFF
    public var backgroundColor: UInt32 = 0xFF1E_1414
    /// 0 to 100.
    public var backgroundOpacity: Int = 78
    /// Corner radius of the bar's background, in pixels.
    public var cornerRadius: Int = 20
    public var showClock = true
    public var showViewers = true
    public var showGifts = true
    public var showMic = true
    public var showAvatar = true
    public var avatarPath: String = ""
    public var backgroundPath: String = ""
    /// The most frames a second the renderer makes.
    public var maxFPS: Int = 30

    enum CodingKeys: String, CodingKey {
        case service
        case streamID = "stream_id"
        case server, width, height
        case maxLines = "max_lines"
        case font
        case textColor = "text_color"
        case backgroundColor = "bg_color"
        case backgroundOpacity = "bg_opacity"
        case cornerRadius = "corner_radius"
        case showClock = "show_clock"
        case showViewers = "show_viewers"
        case showGifts = "show_gifts"
        case showMic = "show_mic"
        case showAvatar = "show_avatar"
        case avatarPath = "avatar_path"
        case backgroundPath = "background_path"
        case maxFPS = "fps"
    }

    public init() {}

    /// Missing or mistyped keys keep their defaults; values are clamped to what the
    /// renderer can draw, so no setting can make it fail.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var s = BarSettings()
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) -> T {
            ((try? c.decodeIfPresent(T.self, forKey: key)) ?? nil) ?? fallback
        }
        s.service = value(.service, s.service)
        s.streamID = value(.streamID, s.streamID)
        s.server = value(.server, s.server)
        s.width = value(.width, s.width)
        s.height = value(.height, s.height)
        s.maxLines = value(.maxLines, s.maxLines)
        s.font = value(.font, s.font)
        // OBS stores colours as signed 64-bit integers in JSON.
        s.textColor = UInt32(truncatingIfNeeded: value(.textColor, Int64(s.textColor)))
        s.backgroundColor = UInt32(truncatingIfNeeded: value(.backgroundColor, Int64(s.backgroundColor)))
        s.backgroundOpacity = value(.backgroundOpacity, s.backgroundOpacity)
        s.cornerRadius = value(.cornerRadius, s.cornerRadius)
        s.showClock = value(.showClock, s.showClock)
        s.showViewers = value(.showViewers, s.showViewers)
        s.showGifts = value(.showGifts, s.showGifts)
        s.showMic = value(.showMic, s.showMic)
        s.showAvatar = value(.showAvatar, s.showAvatar)
        s.avatarPath = value(.avatarPath, s.avatarPath)
        s.backgroundPath = value(.backgroundPath, s.backgroundPath)
        s.maxFPS = value(.maxFPS, s.maxFPS)
        self = s.clamped()
    }

    public func clamped() -> BarSettings {
        var s = self
        s.width = min(max(s.width, Self.sizeRange.lowerBound), Self.sizeRange.upperBound)
        s.height = min(max(s.height, Self.sizeRange.lowerBound), Self.sizeRange.upperBound)
        s.maxLines = min(max(s.maxLines, 1), 50)
        s.font.size = min(max(s.font.size, 8), 200)
        s.backgroundOpacity = min(max(s.backgroundOpacity, 0), 100)
        s.cornerRadius = min(max(s.cornerRadius, 0), 200)
        s.maxFPS = min(max(s.maxFPS, 1), 60)
        if s.font.face.trimmingCharacters(in: .whitespaces).isEmpty { s.font.face = Font().face }
        return s
    }

    /// Decodes the settings object the shim sends; bad JSON is an error with a message.
    public static func decode(json: Data) throws -> BarSettings {
        try JSONDecoder().decode(BarSettings.self, from: json)
    }
}
