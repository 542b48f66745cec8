// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// One form of address that picks a service when a streamer pastes it (chat-downloader's
/// `_VALID_URLS`): web pages on the platform's hosts, or a URL scheme of its own; and what
/// the stream id and server become. Each service lists its own on its `ServiceDescription`.
public struct StreamURLPattern: Sendable {
    public enum Match: Sendable, Equatable {
        /// http(s) URLs on these hosts, matched exactly or as a suffix after a dot (`www.`, `m.`…).
        case hosts([String])
        /// URLs of these schemes, lower case (`ws`, `wss`).
        case schemes([String])
    }

    /// What the stream id (and server) become for a matching URL.
    public enum StreamID: Sendable {
        /// The whole URL: the platform's parser knows its URL forms.
        case wholeURL
        /// The first path component (`twitch.tv/NAME` → `NAME`).
        case firstPathComponent
        /// No stream id: the URL is the server (a relay).
        case server
        /// The platform reads the URL itself, or refuses it with a message (the table puts the
        /// URL before it).
        case read(@Sendable (String) throws(FeedConfigError) -> (streamID: String, server: String))
    }

    public var match: Match
    public var streamID: StreamID
    /// How the list of supported addresses names this form: the platform for web URLs
    /// (`niconico`: "Paste a …, niconico, … URL"), the whole form for a scheme ("a ws:// or wss:// relay").
    public var shownAs: String

    public init(match: Match, streamID: StreamID, shownAs: String) {
        self.match = match
        self.streamID = streamID
        self.shownAs = shownAs
    }

    /// The platform's web pages: `hosts` named as `platform` in the help.
    public static func web(_ platform: String, hosts: [String], streamID: StreamID = .wholeURL) -> StreamURLPattern {
        StreamURLPattern(match: .hosts(hosts.map { $0.lowercased() }), streamID: streamID, shownAs: platform)
    }

    /// URLs of the service's own `schemes`, described in the help as `shownAs`.
    public static func schemes(_ schemes: [String], shownAs: String, streamID: StreamID) -> StreamURLPattern {
        StreamURLPattern(match: .schemes(schemes.map { $0.lowercased() }), streamID: streamID, shownAs: shownAs)
    }

    func matches(scheme: String, host: String?) -> Bool {
        switch match {
        case .schemes(let schemes):
            return schemes.contains(scheme)
        case .hosts(let hosts):
            guard scheme == "http" || scheme == "https", let host else { return false }
            return hosts.contains { host == $0 || host.hasSuffix("." + $0) }
        }
    }
}
