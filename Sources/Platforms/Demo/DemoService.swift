// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// The `demo` service: the embedded sample chat, offline and deterministic.
public enum DemoService {
    public static let description = ServiceDescription(
        id: "demo", displayName: "Demo (built-in sample chat)",
        streamIDHelp: ServiceHelp(en: "ignored", ja: "使いません"),
        urlPatterns: [],
        badge: .plain,
        memberBadges: ServiceDescription.feedProtocolMemberBadges,
        makeFeed: { _ in TimelineFeed(timeline: DemoScript.timeline, loopEvery: DemoScript.loopSeconds) },
        makeTimeline: { _ in DemoScript.timeline }, mayNameLocalFiles: true)
}
