// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarTestSupport
import FoundationEssentials
import Testing

/// The OBS locale files (plugin/data/locale/<lang>.ini): one file per language holds every word of
/// OBS's properties, the dock (`Dock.*`) and the control page (`Page.*`). A translator copies
/// en-US.ini: every file has its keys and no others, and every line reads as OBS reads it.
@Suite struct LocaleFilesTests {
    static let repository = DocsList.repository()

    @Test func everyFileHasTheKeysOfEnglishAndNoOthers() throws {
        let english = try #require(PageWords.locales[PageWords.fallback])
        #expect(PageWords.locales.count >= 2, "en-US and ja-JP at least")
        for (name, file) in PageWords.locales where name != PageWords.fallback {
            let missing = Set(english.words.keys).subtracting(file.words.keys).sorted()
            let extra = Set(file.words.keys).subtracting(english.words.keys).sorted()
            #expect(missing.isEmpty, "\(name).ini lacks \(missing)")
            #expect(extra.isEmpty, "\(name).ini has keys en-US.ini lacks: \(extra)")
        }
    }

    @Test func everyLineReadsAsOBSReadsIt() {
        for (name, file) in PageWords.locales {
            #expect(file.unreadLines.isEmpty, "\(name).ini lines \(file.unreadLines)")
        }
    }

    /// The renderer's built-in copy is the file a translator edits (a build from before an edit fails here).
    @Test func theBuiltInFilesAreTheFilesOnDisk() throws {
        let folder = Self.repository + "/plugin/data/locale"
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ini") }
        #expect(Set(onDisk) == Set(EmbeddedLocale.files.keys))
        for name in onDisk {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8).replacing("\r\n", with: "\n")
            #expect(EmbeddedLocale.files[name].map { "\($0)" } == text, "\(name)")
        }
    }
}
