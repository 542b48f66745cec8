// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarTestSupport
import FoundationEssentials
import Testing

/// The control page's words come from the OBS locale files' `Page.*` keys, through `GET /api/words`.
@Suite struct PageWordsTests {
    /// The keys the page shows: `data-text="…"` in control.html, `T.…` in control.js.
    static func keysThePageUses() throws -> Set<String> {
        let html = try #require(EmbeddedAssets.files["control.html"].map { "\($0)" })
        let script = try #require(EmbeddedAssets.files["control.js"].map { "\($0)" })
        let inHTML = html.matches(of: /data-text="(\w+)"/).map { String($0.output.1) }
        let inScript = script.matches(of: /\bT\.(\w+)/).map { String($0.output.1) }
        return Set(inHTML + inScript)
    }

    @Test func everyWordThePageUsesIsInTheLocaleFilesAndNoneElse() throws {
        let used = try Self.keysThePageUses()
        let english = Set(PageWords.words(in: PageWords.fallback).keys)
        #expect(used.count > 30)
        #expect(used.subtracting(english).isEmpty, "not in en-US.ini as Page.*: \(used.subtracting(english).sorted())")
        #expect(english.subtracting(used).isEmpty, "Page.* keys the page never shows: \(english.subtracting(used).sorted())")
    }

    @Test func theBrowsersLanguagePicksTheFileAsThePageDidBefore() {
        #expect(PageWords.locale(for: "ja") == "ja-JP")
        #expect(PageWords.locale(for: "ja-JP") == "ja-JP")
        #expect(PageWords.locale(for: "JA-jp") == "ja-JP")
        #expect(PageWords.locale(for: "en-GB") == "en-US")
        #expect(PageWords.locale(for: "fr-FR") == "en-US")
        #expect(PageWords.locale(for: "") == "en-US")
        #expect(PageWords.locale(for: nil) == "en-US")
    }

    @Test func theRouteServesTheJapaneseFilesPageWords() async throws {
        let harness = try await RouteHarness()
        let answer = await harness.call("/api/words?lang=ja")
        #expect(answer.status == .ok)
        #expect(answer.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        let served = try JSONDecoder().decode(PageWords.Answer.self, from: Data(answer.body.utf8))
        #expect(served.language == "ja-JP")
        #expect(served.words["pin"] == "固定" && served.words["skip"] == "スキップ")
        let file = try #require(PageWords.locales["ja-JP"])
        let expected = file.words.filter { $0.key.hasPrefix("Page.") }
        #expect(served.words == Dictionary(uniqueKeysWithValues: expected.map { (String($0.key.dropFirst(5)), $0.value) }))
        // A quote in a word arrives as a quote (the ini's `\"`), through a real JSON encoder.
        let english = try JSONDecoder().decode(PageWords.Answer.self, from: Data(await harness.call("/api/words?lang=en-US").body.utf8))
        #expect(english.words["noToken"]?.contains(#""Open control page""#) == true)
    }

    @Test func theWordsNeedTheTokenOrThePagesCookie() async throws {
        let harness = try await RouteHarness()
        #expect(await harness.call("/api/words?lang=ja", bearer: false).status == .unauthorized)
        let cookie = try #require(await harness.openPage())
        let underPage = await harness.call(harness.sessions.path + "/api/words?lang=ja", headers: [("Cookie", cookie)], bearer: false)
        #expect(underPage.status == .ok)
        #expect(await harness.call("/api/words", headers: [("Origin", "http://evil.example")]).status == .forbidden)
    }
}
