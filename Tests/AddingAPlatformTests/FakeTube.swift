// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// A platform that exists only in this test target, described as a folder under
/// Sources/Platforms describes one: its facts on its `ServiceDescription` and nothing else.
enum FakeTube {
    /// A colour no real platform uses, so its pixels can be found in a frame.
    static let badge = PlatformBadge(rgb: 0x12AB34, sign: .ring)
    static let helpJapanese = "フェイクチューブのチャンネル名"

    static let description = ServiceDescription(
        id: "faketube", displayName: "FakeTube",
        streamIDHelp: ServiceHelp(en: "the FakeTube channel", ja: helpJapanese),
        urlPatterns: [.web("FakeTube", hosts: ["faketube.example"], streamID: .firstPathComponent),
                      .schemes(["fake"], shownAs: "a fake://CHANNEL address", streamID: .read(channel))],
        caseInsensitiveIDs: true,
        badge: badge,
        makeFeed: { request throws(FeedConfigError) in
            guard !request.streamID.isEmpty else { throw FeedConfigError("FakeTube needs a channel") }
            return FakeTubeFeed(channel: request.streamID)
        })

    /// `fake://NAME` → NAME.
    @Sendable static func channel(_ text: String) throws(FeedConfigError) -> (streamID: String, server: String) {
        let name = text.dropFirst("fake://".count)
        guard !name.isEmpty else { throw FeedConfigError("a fake:// address needs the channel") }
        return (String(name), "")
    }
}

/// Says it is live and writes one comment.
struct FakeTubeFeed: CommentFeed {
    let channel: String

    func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
        emit(.status(.live))
        emit(.comment(ChatLine(id: "1", user: "fan", text: "hello from \(channel)")))
    }
}
