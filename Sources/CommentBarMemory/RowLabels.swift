// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The words of the memory's badges: the `first_time_label` setting, else by OBS's language
/// (the `locale` of the shim's `{"obs":…}` line): Japanese gets 初見 and おかえり.
public struct RowLabels: Sendable, Equatable {
    public var firstTime: String
    public var back: String

    public init(firstTimeSetting: String, locale: String?) {
        let japanese = locale?.lowercased().hasPrefix("ja") ?? false
        let chosen = firstTimeSetting.trimmingWhitespace(andNewlines: true)
        firstTime = chosen.isEmpty ? (japanese ? "初見" : "first") : chosen
        back = japanese ? "おかえり" : "back"
    }
}
