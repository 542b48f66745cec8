// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import Testing

/// `OBSLocaleFile` reads a locale file as OBS's text lookup does (libobs/util/text-lookup.c), and
/// names the lines OBS would read as something else.
@Suite struct OBSLocaleFileTests {
    @Test func entriesCommentsAndBlankLines() {
        let file = OBSLocaleFile("""
            # a comment="not an entry"
            Pin="Pin"

            Page.pin="固定"\r
            Word=plain
            Pin="Pin again"
            """)
        #expect(file.words == ["Pin": "Pin again", "Page.pin": "固定", "Word": "plain"])
        #expect(file.unreadLines.isEmpty)
    }

    @Test func escapesAreOBSsFourReplacedInItsOrder() {
        let file = OBSLocaleFile(#"""
            Quote="say \"hi\" = ok"
            Lines="one\ntwo\tthree\rfour"
            Backslash="a\\b"
            BackslashN="a\\n"
            """#)
        #expect(file.words["Quote"] == #"say "hi" = ok"#)
        #expect(file.words["Lines"] == "one\ntwo\tthree\rfour")
        // `\\` is not an escape in OBS: it stays, and `\\n` is a backslash and a line break.
        #expect(file.words["Backslash"] == #"a\\b"#)
        #expect(file.words["BackslashN"] == "a\\\n")
    }

    @Test func aByteOrderMarkIsSkipped() {
        #expect(OBSLocaleFile("\u{FEFF}Title=\"Comment Bar\"\n").words == ["Title": "Comment Bar"])
    }

    @Test func linesOBSWouldMisreadAreNamed() {
        let file = OBSLocaleFile("""
            Good="yes"
             Indented="no"
            Spaced = "no"
            Open="no
            After="no" trailing
            NoEquals
            ="no key"
            """)
        #expect(file.words == ["Good": "yes"])
        #expect(file.unreadLines == [2, 3, 4, 5, 6, 7])
    }
}
