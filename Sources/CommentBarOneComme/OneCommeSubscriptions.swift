// SPDX-License-Identifier: GPL-2.0-or-later

/// The message types a template's `/sub` connection asks for.
enum OneCommeSubscriptions {
    /// The types of `p` (`comments,deleted` or several `p=`), from a request's target; nil when
    /// absent (every type). Bounded: at most 64 types of 64 characters from each `p`.
    static func topics(uri: String) -> Set<String>? {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        var types: Set<String> = []
        var named = false
        for pair in query.split(separator: "&") where pair.hasPrefix("p=") {
            named = true
            let value = TemplatePath.decoded(pair.dropFirst(2)) ?? ""
            for type in value.split(separator: ",").prefix(64) { types.insert(String(type.prefix(64))) }
        }
        return named ? types : nil
    }
}
