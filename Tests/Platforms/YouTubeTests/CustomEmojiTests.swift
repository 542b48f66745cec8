// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Foundation
import XCTest
@testable import YouTubePlatform

/// Custom (member and YouTube) emoji → their shortcut in the text and an emote with the image;
/// standard emoji stay Unicode text.
final class CustomEmojiTests: XCTestCase {
    private func line(_ event: FeedEvent?) -> ChatLine? {
        switch event {
        case .comment(let line), .gift(let line): return line
        default: return nil
        }
    }

    private func text(_ json: String) throws -> YouTubeText {
        try JSONDecoder().decode(YouTubeText.self, from: Data(json.utf8))
    }

    func testRecordedCustomEmojiBecomeEmotes() throws {
        let mapped = try Fixtures.actions("extra_actions.json").map(ChatActionMapper.events(for:))
        let owner = try XCTUnwrap(line(mapped[0].first))
        XCTAssertEqual(owner.text, "hi 😂 :yt: :_けーぴー:")
        XCTAssertEqual(owner.emotes, [
            Emote(range: 5..<9, name: ":yt:",
                  url: "https://yt3.ggpht.com/IkpeJf1g9Lq0WNjvSa4XFq4LVNZ9IP5FKW8yywXb12djo1OGdJtziejNASITyq4L0itkMNw=w24-h24-c-k-nd"),
            Emote(range: 10..<17, name: ":_けーぴー:",
                  url: "https://yt3.ggpht.com/7reEmc_TZpS5V4_lkUunwvkX3vnTuN-vK-APZ2u2Cwp8qFm7ILNfS6BMNpHP0NnDVD_-boxarA=w24-h24-c-k-nd"),
        ], "😂 is a standard emoji: text, no image")
        let paid = try XCTUnwrap(line(mapped[2].first))
        XCTAssertEqual(paid.text, "love the stream ❤")
        XCTAssertEqual(paid.emotes, [])
    }

    func testThumbnailNearest48PixelsHttpsOnly() throws {
        let runs = try text(#"""
        {"runs": [
          {"text": "a "},
          {"emoji": {"emojiId": "UCx/abc", "shortcuts": [":_wave:"], "isCustomEmoji": true,
                     "image": {"thumbnails": [{"url": "https://yt3.ggpht.com/w=w24-h24", "width": 24, "height": 24},
                                              {"url": "https://yt3.ggpht.com/w=w96-h96", "width": 96, "height": 96},
                                              {"url": "https://yt3.ggpht.com/w=w48-h48", "width": 48, "height": 48}]}}},
          {"emoji": {"emojiId": "UCx/def", "shortcuts": [":_rel:"], "isCustomEmoji": true,
                     "image": {"thumbnails": [{"url": "//yt3.ggpht.com/rel=w24-h24", "width": 24}]}}},
          {"emoji": {"emojiId": "UCx/ghi", "shortcuts": [":_local:"], "isCustomEmoji": true,
                     "image": {"thumbnails": [{"url": "file:///etc/passwd"}, {"url": "http://yt3.ggpht.com/x"}]}}},
          {"emoji": {"emojiId": "👋", "shortcuts": [":waving_hand:"],
                     "image": {"thumbnails": [{"url": "https://www.youtube.com/s/gaming/emoji/x/emoji_u1f44b.svg"}]}}}
        ]}
        """#)
        let rendered = runs.rendered
        XCTAssertEqual(rendered.text, "a :_wave::_rel::_local:👋")
        XCTAssertEqual(rendered.emotes, [
            Emote(range: 2..<9, name: ":_wave:", url: "https://yt3.ggpht.com/w=w48-h48"),
            Emote(range: 9..<15, name: ":_rel:", url: "https://yt3.ggpht.com/rel=w24-h24"),
        ], "no https image, no emote; a standard emoji stays text")
        XCTAssertEqual(runs.plain, rendered.text)
    }

    func testMilestoneMessageEmotesAreShiftedPastTheHeadline() throws {
        let item = try JSONDecoder().decode(ChatItem.self, from: Data(#"""
        {"liveChatMembershipItemRenderer": {"id": "m1", "authorName": {"simpleText": "Fan"},
          "headerPrimaryText": {"runs": [{"text": "Member for 2 months"}]},
          "message": {"runs": [{"text": "yay "},
            {"emoji": {"emojiId": "UCx/abc", "shortcuts": [":_hype:"], "isCustomEmoji": true,
                       "image": {"thumbnails": [{"url": "https://yt3.ggpht.com/h=w48-h48", "width": 48}]}}}]}}}
        """#.utf8))
        let row = try XCTUnwrap(line(ChatActionMapper.line(for: item)))
        XCTAssertEqual(row.text, "Member for 2 months — yay :_hype:")
        let start = "Member for 2 months — yay ".unicodeScalars.count
        XCTAssertEqual(row.emotes, [Emote(range: start..<(start + 7), name: ":_hype:", url: "https://yt3.ggpht.com/h=w48-h48")])
    }
}
