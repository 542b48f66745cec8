// SPDX-License-Identifier: GPL-2.0-or-later
/// Chat bots, hidden by account or display name.
struct BotFilter: Sendable, Equatable {
    /// The bots streamers meet most, hidden unless `hide_bots` is off.
    static let knownBots = ["Nightbot", "StreamElements", "Streamlabs", "Moobot", "Fossabot", "Wizebot", "Sery_Bot"]

    let names: Set<String>

    init(hideKnownBots: Bool, extraNames: [String]) {
        names = Set(((hideKnownBots ? Self.knownBots : []) + extraNames).map(UserNames.key).filter { !$0.isEmpty })
    }

    func isBot(_ writer: UserNames) -> Bool {
        writer.any(in: names)
    }
}

/// Users the streamer hides, by account or display name.
struct HiddenUserFilter: Sendable, Equatable {
    let names: Set<String>

    init(_ names: [String]) {
        self.names = Set(names.map(UserNames.key).filter { !$0.isEmpty })
    }

    func isHidden(_ writer: UserNames) -> Bool {
        writer.any(in: names)
    }
}

/// A row's writer as the filters compare names: the display name folded once (the NG words
/// match on it too) and the keys of the display name and the account.
struct UserNames: Sendable, Equatable {
    /// The display name folded (`TextFolding`).
    let user: FoldedText
    let keys: [String]

    init(_ line: ChatLine) {
        user = TextFolding.fold(line.user)
        keys = [Self.key(folded: user.joined)] + (line.login.map { [Self.key($0)] } ?? [])
    }

    /// Whether the account (`login`) or the display name is in `names` (keys, as `key` makes them).
    func any(in names: Set<String>) -> Bool {
        !names.isEmpty && keys.contains { !$0.isEmpty && names.contains($0) }
    }

    /// A name as the filters compare it: folded, spaces and one leading `@` dropped.
    static func key(_ name: String) -> String {
        key(folded: TextFolding.foldedString(name))
    }

    private static func key(folded: String) -> String {
        var key = folded.trimmingWhitespace()
        if key.hasPrefix("@") { key.removeFirst() }
        return key
    }
}
