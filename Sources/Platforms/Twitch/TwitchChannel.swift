// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import IRCPlatform

/// Twitch channel names: letters, digits and `_`, at most 25 characters.
enum TwitchChannel {
    static let maxLength = 25

    /// A Twitch channel name → `#name` (lower case). One leading `#` is accepted and dropped.
    static func parse(_ id: String) throws(FeedConfigError) -> String {
        let name = ChannelName.withoutOneHash(id)
        guard !name.isEmpty else { throw FeedConfigError("the twitch service needs a channel name as its stream id") }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
            throw FeedConfigError("bad twitch channel \(String(reflecting: id)): only letters, digits and _ are allowed")
        }
        guard name.count <= maxLength else {
            throw FeedConfigError("bad twitch channel \(String(reflecting: id)): longer than \(maxLength) characters")
        }
        return "#" + name.lowercased()
    }
}
