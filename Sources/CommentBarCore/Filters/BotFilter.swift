// SPDX-License-Identifier: GPL-2.0-or-later
/// Chat bots, hidden by account or display name.
struct BotFilter: Sendable, Equatable {
    /// The bots streamers meet most, hidden unless `hide_bots` is off.
    static let knownBots = ["Nightbot", "StreamElements", "Streamlabs", "Moobot", "Fossabot", "Wizebot", "Sery_Bot"]

    let names: Set<String>

    init(hideKnownBots: Bool, extraNames: [String]) {
        names = Set(((hideKnownBots ? Self.knownBots : []) + extraNames).map(UserNames.key).filter { !$0.isEmpty })
    }

    func isBot(_ line: ChatLine) -> Bool {
        !names.isEmpty && UserNames.any(of: line, in: names)
    }
}

/// Users the streamer hides, by account or display name.
struct HiddenUserFilter: Sendable, Equatable {
    let names: Set<String>

    init(_ names: [String]) {
        self.names = Set(names.map(UserNames.key).filter { !$0.isEmpty })
    }

    func isHidden(_ line: ChatLine) -> Bool {
        !names.isEmpty && UserNames.any(of: line, in: names)
    }
}

enum UserNames {
    /// Whether the row's account (`login`) or display name is in `names` (folded; a leading `@` ignored).
    static func any(of line: ChatLine, in names: Set<String>) -> Bool {
        [line.login, line.user].contains { name in
            guard let name, !name.isEmpty else { return false }
            return names.contains(key(name))
        }
    }

    /// A name as the filters compare it: folded, spaces and one leading `@` dropped.
    static func key(_ name: String) -> String {
        var folded = TextFolding.foldedString(name).trimmingWhitespace()
        if folded.hasPrefix("@") { folded.removeFirst() }
        return folded
    }
}
