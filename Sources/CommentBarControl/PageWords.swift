// SPDX-License-Identifier: GPL-2.0-or-later

/// The control page's words: the `Page.*` keys of the OBS locale files (`plugin/data/locale`,
/// built in as `EmbeddedLocale` by the EmbedLocale plugin), so a translator's one file per language
/// holds OBS's properties, the dock's words and the page's. The page asks `GET /api/words?lang=`
/// with the browser's language and shows what it gets.
enum PageWords {
    static let prefix = "Page."
    /// The locale every other one falls back to, key by key (as `obs_module_text` does).
    static let fallback = "en-US"

    /// What `GET /api/words` answers.
    struct Answer: Codable, Equatable {
        /// The locale file chosen (`ja-JP`).
        var language: String
        /// The page's key (`pin`, the ini's `Page.pin`) → its word.
        var words: [String: String]
    }

    /// Every locale file, read once: its name (`ja-JP`) → the file.
    static let locales: [String: OBSLocaleFile] = Dictionary(
        uniqueKeysWithValues: EmbeddedLocale.files.compactMap { name, text in
            name.hasSuffix(".ini") ? (String(name.dropLast(".ini".count)), OBSLocaleFile("\(text)")) : nil
        })

    /// The locale for a browser's language tag (`navigator.language`): the file of that exact tag
    /// (`ja-JP`), else the first of its language (`ja` → `ja-JP`), else `fallback`.
    static func locale(for browserLanguage: String?) -> String {
        let asked = (browserLanguage ?? "").lowercased()
        let names = locales.keys.sorted()
        if let exact = names.first(where: { $0.lowercased() == asked }) { return exact }
        let language = asked.split(separator: "-").first.map(String.init) ?? ""
        return names.first { $0.lowercased().split(separator: "-").first.map(String.init) == language } ?? fallback
    }

    /// The page's words in `locale`: its `Page.*` keys over the fallback's, the prefix dropped.
    static func words(in locale: String) -> [String: String] {
        var words: [String: String] = [:]
        for name in [fallback, locale] {
            for (key, word) in locales[name]?.words ?? [:] where key.hasPrefix(prefix) {
                words[String(key.dropFirst(prefix.count))] = word
            }
        }
        return words
    }

    static func answer(_ browserLanguage: String?) -> ControlResponse {
        let locale = locale(for: browserLanguage)
        return .json(Answer(language: locale, words: words(in: locale)))
    }
}
