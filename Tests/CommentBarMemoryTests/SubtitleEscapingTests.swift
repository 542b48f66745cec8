// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import Foundation
import Testing

/// A viewer's text in exported subtitles is text: no override block, line break or tag of theirs
/// takes effect when the SRT or ASS file is burned into the video.
@Suite struct SubtitleEscapingTests {
    static let hostile = #"{\an8}{\pos(0,0)\fs500}hello <font size="400">world</font> a\Nb"#

    @Test func srtTextStartsNoOverrideTagOrLineBreak() {
        #expect(ChatExport.srtText(Self.hostile) == #"｛⧵an8｝｛⧵pos(0,0)⧵fs500｝hello ‹font size="400">world‹/font> a⧵Nb"#)
        #expect(ChatExport.srtText("ふつうのコメント 8888 <3") == "ふつうのコメント 8888 ‹3")
        #expect(ChatExport.srtText("two\nlines") == "two lines")
        #expect(ChatExport.srtText("\\\u{0301}N {\u{0301}") == "⧵\u{0301}N ｛\u{0301}", "a mark does not hide a backslash")
    }

    @Test func assTextStartsNoOverrideOrLineBreak() {
        #expect(ChatExport.assText(#"{\pos(0,0)}a\Nb"#) == #"\{⧵pos(0,0)\}a⧵Nb"#)
    }

    /// Burned with ffmpeg's `subtitles` filter (libass): the escaped hostile line is drawn where
    /// and as large as a plain line; the same text unescaped jumps to the top at 400 px. The font
    /// is named (DejaVu Sans, `fonts-dejavu-core`, installed by `make deps`) and the frame wide
    /// enough for the line at its default size, so what the machine's fontconfig prefers changes
    /// nothing (with another default font the line wrapped at 640 px on one machine).
    @Test func aHostileLineBurnedWithFFmpegLooksLikePlainText() throws {
        let width = 1920
        let folder = TemporaryFolder()
        func burn(_ text: String) throws -> (top: Int, bottom: Int)? {
            let srt = folder.file("cue.srt")
            try "1\n00:00:00,000 --> 00:00:05,000\nAlice: \(text)\n\n".write(toFile: srt, atomically: true, encoding: .utf8)
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = ["-v", "error", "-f", "lavfi", "-i", "color=c=black:s=\(width)x360:d=1",
                                "-vf", "subtitles=filename=\(srt):force_style='FontName=DejaVu Sans'",
                                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
            let out = Pipe()
            ffmpeg.standardOutput = out
            try ffmpeg.run()
            let pixels = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
            ffmpeg.waitUntilExit()
            try #require(pixels.count == width * 360, "ffmpeg gave \(pixels.count) bytes")
            let lit = (0..<360).filter { y in (0..<width).contains { pixels[y * width + $0] > 128 } }
            return lit.first.map { ($0, lit.last ?? $0) }
        }
        let plain = try #require(try burn("hello world a b"), "the plain line is drawn")
        let raw = try #require(try burn(Self.hostile))
        #expect(raw.top < plain.top - 50 || raw.bottom - raw.top > 3 * (plain.bottom - plain.top),
                "the check can fail: unescaped, the line moves or grows (\(raw) against \(plain))")
        let escaped = try #require(try burn(ChatExport.srtText(Self.hostile)))
        #expect(abs(escaped.top - plain.top) <= 4 && abs(escaped.bottom - plain.bottom) <= 4,
                "escaped: rows \(escaped), plain text: rows \(plain)")
    }
}
