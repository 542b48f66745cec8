// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarMemory

/// Each viewer's comments and bans this stream, for a giveaway's rules: at most `maxViewers`
/// viewers are kept (a bigger chat's later newcomers count from nothing), so it stays bounded.
struct ViewerCounts: Sendable {
    static let maxViewers = 100_000
    private var comments: [ViewerKey: Int] = [:]
    private var bans: Set<ViewerKey> = []

    mutating func comment(by viewer: ViewerKey) {
        guard comments[viewer] != nil || comments.count < Self.maxViewers else { return }
        comments[viewer, default: 0] += 1
    }

    func comments(of viewer: ViewerKey) -> Int { comments[viewer] ?? 0 }

    /// What the memory counted before this renderer started (the same stream): each viewer's
    /// count is the larger of the two, as the memory's may hold rows this renderer counted too.
    mutating func restore(_ counted: [ViewerKey: Int]) {
        for (viewer, count) in counted where comments[viewer] != nil || comments.count < Self.maxViewers {
            comments[viewer] = max(comments[viewer] ?? 0, count)
        }
    }

    mutating func ban(_ viewer: ViewerKey) {
        if bans.count < Self.maxViewers { bans.insert(viewer) }
    }

    func isBanned(_ viewer: ViewerKey) -> Bool { bans.contains(viewer) }
}
