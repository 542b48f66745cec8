// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds

/// A pasted `ircs://host[:port]/#channel` address → the channel (the stream id) and the
/// server; the irc service's URL pattern.
enum IRCAddress {
    static let missingChannel = "an IRC address needs the channel, e.g. ircs://irc.libera.chat/#channel"

    @Sendable static func read(_ text: String) throws(FeedConfigError) -> (streamID: String, server: String) {
        guard let schemeEnd = text.firstRange(of: "://") else { throw FeedConfigError(missingChannel) }
        let rest = text[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { throw FeedConfigError(missingChannel) }
        var channel = String(rest[rest.index(after: slash)...])
        if !channel.hasPrefix("#") && !channel.hasPrefix("%23") { channel = "#" + channel }
        channel = channel.replacing("%23", with: "#")
        guard channel.count > 1 else { throw FeedConfigError(missingChannel) }
        return (channel, String(text[..<schemeEnd.upperBound]) + String(rest[..<slash]))
    }
}
