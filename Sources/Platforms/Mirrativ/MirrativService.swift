// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// The `mirrativ` service: a Mirrativ live's comments, gifts and viewers, with the streamer's
/// own login session (`mirrativ_session`).
public enum MirrativService {
    public static let description = ServiceDescription(
        id: "mirrativ", displayName: "Mirrativ",
        streamIDHelp: ServiceHelp(en: "the live URL (https://www.mirrativ.com/live/LIVE_ID) or your user page; needs your Mirrativ session",
                                   ja: "配信の URL（https://www.mirrativ.com/live/LIVE_ID）またはユーザーページ。ミラティブのログイン情報が必要です"),
        urlPatterns: [.web("Mirrativ", hosts: ["mirrativ.com"])],
        badge: PlatformBadge(rgb: 0xFF5A5F, sign: .ring),
        makeFeed: { request throws(FeedConfigError) in
            let stream = try MirrativStreamID.parse(request.streamID)
            // The session goes to Mirrativ's own host only: no other API may be named.
            guard request.server.isEmpty else {
                throw FeedConfigError("the mirrativ service takes no server setting: your session is sent only to www.mirrativ.com")
            }
            return MirrativChatFeed(stream: stream, session: try MirrativSession.find(in: request), web: request.web)
        })
}
