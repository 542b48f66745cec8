// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Testing

/// A viewer's text is text in a page and in comment.xml: no tag, no attribute's end, and in XML
/// nothing a parser refuses.
@Suite struct MarkupEscapingTests {
    static let hostile = "<img src=x onerror=\"a()\"> & 'b'\u{01}\u{FFFE}\tend"

    @Test func inAPageEveryMarkupCharacterIsAnEntity() {
        #expect(MarkupEscaping.escaped(Self.hostile.unicodeScalars, for: .html)
                == "&lt;img src=x onerror=&quot;a()&quot;&gt; &amp; &#39;b&#39;\u{01}\u{FFFE}\tend")
    }

    @Test func inXMLWhatXMLCannotHoldIsDropped() {
        #expect(MarkupEscaping.escaped(Self.hostile.unicodeScalars, for: .xml)
                == "&lt;img src=x onerror=&quot;a()&quot;&gt; &amp; &apos;b&apos;\tend")
    }
}
