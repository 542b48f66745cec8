// SPDX-License-Identifier: GPL-2.0-or-later

/// The audience strip's own words (issue 48), in OBS's language: Japanese when OBS's UI is
/// Japanese, English otherwise (the two languages the plugin ships, plugin/data/locale). The
/// streamer's question, options and the viewers' names are never translated.
struct AudienceWords: Sendable, Equatable {
    /// Which of the shipped languages these are: two sets of words are equal when it is.
    var language: String
    var closed: String
    var playing: String
    /// "12 waiting".
    var waiting: @Sendable (Int) -> String
    var full: String
    var next: String

    static let english = AudienceWords(language: "en", closed: "closed", playing: "playing",
                                       waiting: { "\($0) waiting" }, full: "full", next: "next: ")
    static let japanese = AudienceWords(language: "ja", closed: "締切", playing: "プレイ中",
                                        waiting: { "待ち \($0) 人" }, full: "満員", next: "次: ")

    /// The words for OBS's UI locale (`ja-JP`, `en-US`; nil: not known).
    static func forLocale(_ locale: String?) -> AudienceWords {
        locale?.lowercased().hasPrefix("ja") == true ? .japanese : .english
    }

    /// Compared on every frame (what a frame shows): the language only, no words built.
    static func == (lhs: AudienceWords, rhs: AudienceWords) -> Bool { lhs.language == rhs.language }
}
