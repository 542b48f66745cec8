// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSettings
import FoundationEssentials
@testable import CommentBarSpeech
import XCTest

final class ReadingRulesTests: XCTestCase {
    let rules = ReadingRules(readNames: true, maxCharacters: 20)

    func line(_ text: String, user: String = "taro", kind: ChatLine.Kind = .comment, emotes: [Emote] = []) -> ChatLine {
        ChatLine(id: "1", user: user, text: text, kind: kind, emotes: emotes)
    }

    func testNamesOnAndOff() {
        XCTAssertEqual(rules.sentence(for: line("こんにちは", user: "花子")), "花子さん、こんにちは")
        XCTAssertEqual(rules.sentence(for: line("hello there", user: "bob")), "bob: hello there")
        let noNames = ReadingRules(readNames: false, maxCharacters: 20)
        XCTAssertEqual(noNames.sentence(for: line("hello there", user: "bob")), "hello there")
    }

    func testLongTextIsCut() {
        XCTAssertEqual(ReadingRules(readNames: false, maxCharacters: 5).sentence(for: line("あいうえおかきくけこ")),
                       "あいうえお、以下略")
        XCTAssertEqual(ReadingRules(readNames: false, maxCharacters: 5).sentence(for: line("abcde fghij")),
                       "abcde, and more")
        let huge = String(repeating: "長", count: 10_000)
        let said = ReadingRules(readNames: false, maxCharacters: 80).sentence(for: line(huge))
        XCTAssertLessThanOrEqual(said?.count ?? 0, 80 + 4)
    }

    func testURLsAreReadAsURL() {
        XCTAssertEqual(rules.sentence(for: line("見て https://example.com/a?b=c ね", user: "")), "見て URL ね")
        XCTAssertEqual(rules.sentence(for: line("see www.example.com now", user: "")), "see URL now")
    }

    func testEmoteCodesAreSkipped() {
        let text = "hi Kappa there"
        let emote = Emote(range: 3..<8, name: "Kappa", url: "https://example.com/k.png")
        XCTAssertEqual(rules.sentence(for: line(text, user: "", emotes: [emote])), "hi there")
        XCTAssertNil(rules.sentence(for: line("Kappa", user: "", emotes: [Emote(range: 0..<5, name: "Kappa",
                                                                                  url: "https://e.com/k.png")])))
    }

    func testLaughterRunsAreReadOnce() {
        XCTAssertEqual(rules.sentence(for: line("面白いwwwww", user: "")), "面白い わら")
        XCTAssertEqual(rules.sentence(for: line("草草草", user: "")), "わら")
        XCTAssertEqual(rules.sentence(for: line("ｗｗｗ 草草", user: "")), "わら")
        XCTAssertEqual(rules.sentence(for: line("wow www", user: "")), "wow わら")
    }

    func testMaskedNGWordsAreNeverRead() {
        // The bar's mask mode turns NG words into ＊ runs; they are not read at all.
        var state = BarState()
        state.filters = ChatFilters(ngWords: ["ばか"], ngMode: .mask)
        state.apply(.comment(ChatLine(id: "1", user: "u", text: "おまえばかだな")))
        let shown = state.lines.last
        XCTAssertEqual(shown.flatMap { rules.sentence(for: $0) }?.contains("ばか"), false)
        XCTAssertEqual(shown.flatMap { ReadingRules(readNames: false).sentence(for: $0) }, "おまえ だな")
    }

    func testGiftsArePhrasedWithNameGiftAndCount() {
        XCTAssertEqual(rules.sentence(for: line("", user: "花子", kind: .gift(name: "バラ", count: 3))), "花子さんからバラを3個")
        XCTAssertEqual(rules.sentence(for: line("", user: "bob", kind: .gift(name: "Bits", count: 100))),
                       "bob sent 100 × Bits")
        XCTAssertEqual(rules.sentence(for: line("thanks", user: "bob", kind: .gift(name: "rose", count: 1))),
                       "bob sent rose. thanks")
    }

    func testSettingsComeFromTheTable() throws {
        let settings = try JSONDecoder().decode(SpeechSettings.self, from: Data(
            #"{"speech":true,"speech_engine":"voicevox","speech_max_chars":5000,"speech_max_delay":5}"#.utf8))
        XCTAssertTrue(settings.enabled)
        XCTAssertEqual(settings.engine, .voicevox)
        XCTAssertEqual(settings.maxCharacters, 1000)  // clamped to the table's range
        XCTAssertEqual(settings.maxDelay, 5)
        XCTAssertEqual(SpeechSettings().maxDelay, 10)
        XCTAssertFalse(SpeechSettings().enabled)
        XCTAssertEqual(try JSONDecoder().decode(SpeechControl.self, from: Data(#"{"skip":2,"paused":true}"#.utf8)),
                       SpeechControl(skip: 2, paused: true))
    }

    /// Every number is clamped to its row's range in the table, both ends, whatever the row says.
    func testBoundsFollowTheTable() throws {
        for key in ["speech_max_chars", "speech_rate", "speech_volume", "speech_max_delay"] {
            let row = try XCTUnwrap(cb_setting_find(key)).pointee
            let low = try JSONDecoder().decode(SpeechSettings.self, from: Data(#"{"\#(key)":-100000}"#.utf8))
            let high = try JSONDecoder().decode(SpeechSettings.self, from: Data(#"{"\#(key)":100000}"#.utf8))
            let (lowValue, highValue): (Int, Int) = switch key {
            case "speech_max_chars": (low.maxCharacters, high.maxCharacters)
            case "speech_rate": (low.rate, high.rate)
            case "speech_volume": (low.volume, high.volume)
            default: (low.maxDelay, high.maxDelay)
            }
            XCTAssertEqual(lowValue, Int(row.min), key)
            XCTAssertEqual(highValue, Int(row.max), key)
        }
    }

    /// The engines are exactly the table's choices for speech_engine, in its order, with its
    /// default; every speech row of the table is decoded here.
    func testEnginesAreTheTablesChoices() throws {
        let row = try XCTUnwrap(cb_setting_find("speech_engine"))
        let choices = String(cString: try XCTUnwrap(row.pointee.choices)).split(separator: "|").map(String.init)
        XCTAssertEqual(choices, SpeechSettings.Engine.allCases.map(\.rawValue))
        XCTAssertEqual(SpeechSettings().engine.rawValue, String(cString: try XCTUnwrap(row.pointee.default_string)))
        for index in 0..<Int(CB_SETTING_COUNT.rawValue) {
            guard let key = cb_setting_at(index).map({ String(cString: $0.pointee.key) }), key.hasPrefix("speech") else {
                continue
            }
            XCTAssertNotNil(SpeechSettings.CodingKeys(rawValue: key), key)
        }
    }

    func testServerAddresses() throws {
        XCTAssertEqual(try SpeechServer.parse("127.0.0.1:50021", defaultPort: 1), SpeechServer(host: "127.0.0.1", port: 50021))
        XCTAssertEqual(try SpeechServer.parse("localhost", defaultPort: 50001), SpeechServer(host: "localhost", port: 50001))
        XCTAssertEqual(try SpeechServer.parse("[::1]:5", defaultPort: 1).authority, "[::1]:5")
        XCTAssertThrowsError(try SpeechServer.parse("", defaultPort: 1))
        XCTAssertThrowsError(try SpeechServer.parse("host:99999", defaultPort: 1))
        XCTAssertThrowsError(try SpeechServer.parse("a/b:1", defaultPort: 1))
    }

    func testBouyomiChanTalkCommand() {
        let bytes = BouyomiChanEngine.talkCommand("あ", options: VoiceOptions())
        XCTAssertEqual(bytes, [0x01, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00,
                               0x03, 0x00, 0x00, 0x00, 0xE3, 0x81, 0x82])
    }

    func testWAVRoundTripAndStrictReading() throws {
        let audio = SpeechAudio(samples: [0, 0.5, -0.5, 1], sampleRate: 24000)
        let bytes = WAVFile.encode(audio)
        let back = try WAVFile.decode(bytes)
        XCTAssertEqual(back.sampleRate, 24000)
        XCTAssertEqual(back.samples.count, 4)
        XCTAssertEqual(back.samples[1], 0.5, accuracy: 0.001)
        var bad = bytes
        bad[20] = 3  // format 3 (float): refused
        XCTAssertThrowsError(try WAVFile.decode(bad))
        var badRate = bytes
        badRate[28] = 0  // byte rate no longer rate * align
        XCTAssertThrowsError(try WAVFile.decode(badRate))
        XCTAssertThrowsError(try WAVFile.decode(Array(bytes.prefix(30))))
        XCTAssertThrowsError(try WAVFile.decode(Array("RIFF....WAVEjunk".utf8)))
        let resampled = LinearResampler.resample(back, to: 48000)
        XCTAssertEqual(resampled.samples.count, 8)
        XCTAssertEqual(resampled.sampleRate, 48000)
    }
}
