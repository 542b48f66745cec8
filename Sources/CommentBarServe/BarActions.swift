// SPDX-License-Identifier: GPL-2.0-or-later
/// `{"actions":{"pin_newest":N,"unpin":N,"open_control":N,"forget_secrets":N,"save_theme":N,
/// "save_theme_path":"…","close_poll":N,"queue_next":N,"giveaway_draw":N}}`: counters the shim
/// bumps on the OBS hotkeys "Pin the newest comment", "Unpin", "Close the poll", "Call the next
/// viewer" and "Draw a giveaway winner" and on the properties buttons "Open control page", "Forget" (the source's saved
/// secrets) and "Save the look to a file" (its file beside it). A counter missing or mistyped is
/// not known (nil), never a reset to 0.
public struct ActionCounters: Decodable, Sendable, Equatable {
    public var pinNewest: Int?
    public var unpin: Int?
    public var openControl: Int?
    public var forgetSecrets: Int?
    public var saveTheme: Int?
    /// The file the newest "Save the look to a file" named ("" before any).
    public var saveThemePath: String?
    public var closePoll: Int?
    public var callNext: Int?
    public var drawWinner: Int?

    public init(pinNewest: Int? = nil, unpin: Int? = nil, openControl: Int? = nil, forgetSecrets: Int? = nil,
                saveTheme: Int? = nil, saveThemePath: String? = nil) {
        self.pinNewest = pinNewest
        self.unpin = unpin
        self.openControl = openControl
        self.forgetSecrets = forgetSecrets
        self.saveTheme = saveTheme
        self.saveThemePath = saveThemePath
    }

    enum CodingKeys: String, CodingKey {
        case pinNewest = "pin_newest"
        case unpin
        case openControl = "open_control"
        case forgetSecrets = "forget_secrets"
        case saveTheme = "save_theme"
        case saveThemePath = "save_theme_path"
        case closePoll = "close_poll"
        case callNext = "queue_next"
        case drawWinner = "giveaway_draw"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value(_ key: CodingKeys) -> Int? { (try? c.decodeIfPresent(Int.self, forKey: key)) ?? nil }
        pinNewest = value(.pinNewest)
        unpin = value(.unpin)
        openControl = value(.openControl)
        forgetSecrets = value(.forgetSecrets)
        saveTheme = value(.saveTheme)
        saveThemePath = (try? c.decodeIfPresent(String.self, forKey: .saveThemePath)) ?? nil
        closePoll = value(.closePoll)
        callNext = value(.callNext)
        drawWinner = value(.drawWinner)
    }

    func count(_ action: BarAction) -> Int? {
        switch action {
        case .pinNewest: pinNewest
        case .unpin: unpin
        case .openControl: openControl
        case .forgetSecrets: forgetSecrets
        case .saveTheme: saveTheme
        case .closePoll: closePoll
        case .callNext: callNext
        case .drawWinner: drawWinner
        }
    }
}

/// What the pin and control hotkeys, the secrets' "Forget" and "Save the look to a file" ask for.
public enum BarAction: String, Sendable, Equatable, CaseIterable {
    case pinNewest = "pin_newest"
    case unpin
    case openControl = "open_control"
    /// The session's own (its stdin loop keeps the secrets): never handed to a `BarActionHandler`.
    case forgetSecrets = "forget_secrets"
    /// The session's own too (`LookSaving`): never handed to a `BarActionHandler`.
    case saveTheme = "save_theme"
    /// The audience's (issue 48), the participation part's: never handed to a `BarActionHandler`.
    case closePoll = "close_poll"
    case callNext = "queue_next"
    case drawWinner = "giveaway_draw"

    /// Whether the `BarActionHandler` (pinning, the control page) acts on it; the others belong
    /// to a part (the secrets, the audience) or to the session (the look).
    var isTheHandlers: Bool {
        switch self {
        case .pinNewest, .unpin, .openControl: true
        case .forgetSecrets, .saveTheme, .closePoll, .callNext, .drawWinner: false
        }
    }
}

/// Who acts on those hotkeys (pinning, the control page): given to `ServeSession`, called once
/// per press, off the frame loop, never for a repeated line, never for `forgetSecrets` or `saveTheme`.
public protocol BarActionHandler: Sendable {
    func perform(_ action: BarAction)
}

/// Turns the counters into actions: one action per line in which a counter went up, never one
/// for a repeated line. The first value a renderer sees of each counter is its baseline, not a
/// press: the shim sends its newest line again to every renderer it starts (after a crash or a
/// size change), and a restart must not pin again or open the control page again. A counter
/// that goes down (a new source) is a new baseline.
public struct ActionTracker: Sendable {
    private var last: [BarAction: Int] = [:]

    public init() {}

    public mutating func actions(for counters: ActionCounters) -> [BarAction] {
        BarAction.allCases.filter { action in
            guard let count = counters.count(action) else { return false }
            defer { last[action] = count }
            return last[action].map { count > $0 } ?? false
        }
    }
}
