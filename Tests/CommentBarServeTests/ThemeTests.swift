// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarServe
import CommentBarSettings
import Foundation
import XCTest
@testable import CommentBarCore

/// Themes (issue 38): the built-ins, how a theme fills in the look, and theme files (read by the
/// session, `ThemeFiles`: Core opens no file), whose every fault is named with the file and the
/// key while the look stays as it was.
final class ThemeTests: XCTestCase {
    /// A folder of this test's own, removed after it.
    private struct Folder { var path = "" }
    private var folder = Folder()

    override func setUpWithError() throws {
        var template = Array("\(NSTemporaryDirectory())/themes-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        folder.path = try XCTUnwrap(made)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder.path)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let path = folder.path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The settings as the session has them: decoded, and the theme file they name read.
    private func settings(_ json: String) throws -> BarSettings {
        ThemeFiles.resolved(try BarSettings.decode(json: Data(json.utf8)))
    }

    func testTheBuiltInsAreTheTablesListAndEachIsAValidTheme() throws {
        XCTAssertEqual(Theme.builtinNames, ["mirrativ", "light", "box-outline", "ticker"])
        XCTAssertEqual(Theme.builtinNames.first, SettingsSchema.string("theme"), "the default theme is the first")
        for name in Theme.builtinNames {
            let values = try XCTUnwrap(Theme.builtin(name), name)
            for (key, value) in values {
                let lookKey = try XCTUnwrap(LookKey.named(key), "\(name): \(key) is a look key")
                // Each value is one its key's row takes (as a theme file would be checked).
                let json: AnyJSON
                switch value {
                case .bool(let flag): json = .bool(flag)
                case .int(let number): json = .integer(number)
                case .text(let text): json = .string(text)
                }
                XCTAssertEqual(try lookKey.value(from: json).get(), value, "\(name): \(key)")
            }
        }
        XCTAssertEqual(Theme.builtin("mirrativ"), [:], "the default theme is the table's defaults: today's look")
    }

    func testEveryLookKeyIsATableRowAndReadsWhatItWrites() throws {
        for key in LookKey.all {
            XCTAssertNotNil(cb_setting_find(key.key), key.key)
            XCTAssertNil(["service", "stream_id", "width", "height", "avatar_path", "theme"].first { $0 == key.key },
                         "\(key.key): a theme holds no source, size, file or theme")
        }
        var settings = BarSettings()
        LookKey.named("layout")?.set(&settings, .text("ticker"))
        LookKey.named("font.size")?.set(&settings, .int(40))
        LookKey.named("outline_color")?.set(&settings, .int(0xFF00_00FF))
        XCTAssertEqual(settings.layout, .ticker)
        XCTAssertEqual(settings.font.size, 40)
        XCTAssertEqual(settings.outlineColor, 0xFF00_00FF)
        XCTAssertEqual(settings.look["font.size"], .int(40))
    }

    func testAThemeFillsInTheLookUnderWhatTheSourceChanged() throws {
        let boxed = try settings(#"{"theme":"box-outline"}"#)
        XCTAssertEqual(boxed.layout, .box)
        XCTAssertEqual(boxed.backgroundOpacity, 0)
        XCTAssertEqual(boxed.textOutline, 3)
        XCTAssertFalse(boxed.showClock)
        XCTAssertNil(boxed.themeProblem)
        // What the streamer changed from its default wins over the theme.
        let mine = try settings(#"{"theme":"box-outline","bg_opacity":40,"show_clock":true,"layout":"ticker"}"#)
        XCTAssertEqual(mine.backgroundOpacity, 40)
        XCTAssertEqual(mine.layout, .ticker)
        XCTAssertEqual(mine.textOutline, 3, "the rest of the theme still applies")
        XCTAssertEqual(try settings(#"{"theme":"mirrativ"}"#), BarSettings(), "the default theme is the defaults")
        // A theme given instead of the settings' own (`commentbar render --theme`).
        let light = try BarSettings.decode(json: Data(#"{"theme":"ticker"}"#.utf8), theme: "light")
        XCTAssertEqual(light.layout, .bar)
        XCTAssertEqual(light.theme, "light")
        XCTAssertNotEqual(light.backgroundColor, BarSettings().backgroundColor)
    }

    func testAThemeFileIsReadWithColoursAsPeopleWriteThem() throws {
        let path = try file("mine.json", """
            {"layout": "box", "text_color": "#ff8000", "bg_color": 4278190335, "outline_color": "#00000080",
             "font": {"face": "Noto Sans", "size": 30}, "enter": "slide", "fade_after": 10}
            """)
        let look = try settings(#"{"theme":"\#(path)"}"#)
        XCTAssertNil(look.themeProblem)
        XCTAssertEqual(look.layout, .box)
        XCTAssertEqual(look.textColor, 0xFF00_80FF, "#ff8000 is OBS's 0xAABBGGRR 0xFF0080FF")
        XCTAssertEqual(look.backgroundColor, 0xFF00_00FF)
        XCTAssertEqual(look.outlineColor, 0x8000_0000)
        XCTAssertEqual(look.font.face, "Noto Sans")
        XCTAssertEqual(look.font.size, 30)
        XCTAssertEqual(look.enter, .slide)
        XCTAssertEqual(look.fadeAfter, 10)
    }

    /// Core decodes the settings and opens no file: a theme file waits for the session to read it.
    func testCoreLeavesAThemeFileForTheSessionToRead() throws {
        let path = try file("mine.json", #"{"layout": "box"}"#)
        let decoded = try BarSettings.decode(json: Data(#"{"theme":"\#(path)"}"#.utf8))
        XCTAssertEqual(decoded.themeFile, path)
        XCTAssertEqual(decoded.layout, .bar, "not applied by Core")
        let resolved = ThemeFiles.resolved(decoded)
        XCTAssertNil(resolved.themeFile)
        XCTAssertEqual(resolved.layout, .box)
        XCTAssertNil(try BarSettings.decode(json: Data(#"{"theme":"light"}"#.utf8)).themeFile, "a built-in needs no file")
    }

    func testAnExportedLookLoadsAsTheSameLook() throws {
        var original = try settings(#"{"theme":"box-outline","text_color":4278255615,"fade_after":7}"#)
        original.font.size = 31
        let text = ThemeFile.text(of: original)
        XCTAssertTrue(text.contains(##""text_color" : "#ffff00""##), text)
        let path = folder.path + "/saved.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        let loaded = try settings(#"{"theme":"\#(path)"}"#)
        XCTAssertEqual(loaded.look, original.look, "a saved look, loaded by another source, is the same look")
    }

    /// Each fault: the file and the key named, nothing of the file applied, the look the settings' own.
    func testEachFaultIsNamedWithTheFileAndTheKeyAndChangesNothing() throws {
        let cases: [(String, String, String)] = [
            (#"{"bg_opacity": 40, "sparkle": true}"#, #"key "sparkle": unknown key"#, "unknown key"),
            (#"{"bg_opacity": "high"}"#, #"key "bg_opacity": expected a whole number from 0 to 100, got "high""#, "wrong type"),
            (#"{"bg_opacity": 150}"#, #"key "bg_opacity": 150 is out of range (0 to 100)"#, "out of range"),
            (#"{"text_outline": 9}"#, #"key "text_outline": 9 is out of range (0 to 8)"#, "outline out of range"),
            (#"{"layout": "grid"}"#, #"key "layout": unknown value "grid" (it may be bar, box, ticker)"#, "unknown choice"),
            (#"{"show_clock": 1}"#, #"key "show_clock": expected true or false, got 1"#, "a number for a switch"),
            (#"{"text_color": "pink"}"#, #"key "text_color": expected a colour"#, "not a colour"),
            (#"{"font": {"size": 500}}"#, #"key "font.size": 500 is out of range (8 to 200)"#, "the font's size"),
            (#"{"service": "twitch"}"#, #"key "service": not a look setting"#, "not a look setting"),
            (#"{"layout": "box""#, "not JSON", "cut short"),
            ("[1, 2]", "not a JSON object of look settings", "a list"),
        ]
        for (text, message, name) in cases {
            let path = try file("bad.json", text)
            let look = try settings(#"{"theme":"\#(path)","max_lines":4}"#)
            let problem = try XCTUnwrap(look.themeProblem, name)
            XCTAssertTrue(problem.hasPrefix(path + ": "), "\(name): names the file: \(problem)")
            XCTAssertTrue(problem.contains(message), "\(name): \(problem)")
            XCTAssertTrue(look.unknownChoices.contains { $0.hasPrefix("theme: ") && $0.contains(message) },
                          "\(name): serve logs it: \(look.unknownChoices)")
            var expected = try settings(#"{"max_lines":4}"#)
            expected.theme = path
            expected.themeProblem = problem
            expected.unknownChoices = look.unknownChoices
            XCTAssertEqual(look, expected, "\(name): nothing of the file is applied")
        }
        let several = try file("several.json", #"{"bg_opacity": 150, "sparkle": 1, "layout": 3}"#)
        let problem = try XCTUnwrap(try settings(#"{"theme":"\#(several)"}"#).themeProblem)
        XCTAssertTrue(problem.contains(#"key "bg_opacity""#) && problem.hasSuffix("(and 2 more)"), problem)
    }

    /// Files no theme is: bounded time and memory, a clear message.
    func testHugeGarbageFIFOAndFolderAreRefusedWithoutReadingThem() throws {
        let huge = folder.path + "/huge.json"
        let fd = open(huge, O_WRONLY | O_CREAT, 0o644)
        XCTAssertEqual(ftruncate(fd, 10 << 20), 0)
        close(fd)
        XCTAssertEqual(ThemeFiles.load(huge).problem?.message, "too large (a theme file is at most 64 KiB)")

        var garbage = [UInt8](repeating: 0, count: 4096)
        var generator = SystemRandomNumberGenerator()
        for index in garbage.indices { garbage[index] = generator.next() }
        let binary = folder.path + "/garbage.json"
        try Data(garbage).write(to: URL(fileURLWithPath: binary))
        XCTAssertEqual(ThemeFiles.load(binary).problem?.message.hasPrefix("not JSON"), true)

        let fifo = folder.path + "/fifo.json"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Nobody writes to it: a reader that waited would hang here.
        XCTAssertEqual(ThemeFiles.load(fifo).problem?.message.hasPrefix("not a regular file"), true)

        XCTAssertEqual(ThemeFiles.load(folder.path).problem?.message, "is a folder, not a theme file")
        XCTAssertEqual(ThemeFiles.load(folder.path + "/missing.json").problem?.message, "no such file")
        let unknown = try XCTUnwrap(try settings(#"{"theme":"sparkly"}"#).themeProblem)
        XCTAssertTrue(unknown.contains("no such built-in theme"), unknown)
    }
}

private extension Result {
    var problem: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
