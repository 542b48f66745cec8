// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The one table of stream URLs the bar recognises: which service a pasted URL is
/// for. Each platform's own parser then reads the URL itself (a YouTube watch URL, a
/// niconico programme…); this table only picks the service. Relays and IRC are
/// recognised by their scheme.
public enum StreamURLTable {
    /// What the stream id becomes for a recognised web URL.
    enum StreamID {
        /// The first path component (`twitch.tv/NAME` → `NAME`).
        case firstPathComponent
        /// The whole URL: the platform's parser knows its URL forms.
        case wholeURL
    }

    struct Row {
        var service: String
        var platform: String
        /// Host names, matched exactly or as a suffix after a dot (`www.`, `m.`…).
        var hosts: [String]
        var streamID: StreamID
        /// Whether the platform's ids ignore case (Twitch channels): they are kept lower case,
        /// so the same stream written two ways is one stream.
        var caseInsensitiveIDs = false
    }

    /// The id as the service compares ids: lower case where the platform ignores case.
    static func canonicalID(_ id: String, service: String) -> String {
        rows.contains { $0.service == service && $0.caseInsensitiveIDs } ? id.lowercased() : id
    }

    static let rows: [Row] = [
        Row(service: "twitch", platform: "Twitch", hosts: ["twitch.tv"], streamID: .firstPathComponent,
            caseInsensitiveIDs: true),
        Row(service: "youtube", platform: "YouTube", hosts: ["youtube.com", "youtu.be"], streamID: .wholeURL),
        Row(service: "niconico", platform: "niconico", hosts: ["live.nicovideo.jp", "live2.nicovideo.jp", "nicovideo.jp",
                                                               "nico.ms"], streamID: .wholeURL),
        Row(service: "twitcasting", platform: "TwitCasting", hosts: ["twitcasting.tv"], streamID: .wholeURL),
        Row(service: "openrec", platform: "OPENREC", hosts: ["openrec.tv"], streamID: .wholeURL),
        Row(service: "showroom", platform: "SHOWROOM", hosts: ["showroom-live.com"], streamID: .wholeURL),
    ]

    /// For the message an unrecognised URL gets.
    public static var supportedHelp: String {
        "Paste a " + rows.map(\.platform).joined(separator: ", ")
            + " URL, a ws:// or wss:// relay, an ircs://host/#channel address, or service:id."
    }

    /// The address a URL names; nil when the text is not a URL at all (a plain id).
    /// A URL of an unknown host or scheme is an error that names what is supported.
    public static func detect(_ text: String) throws(FeedConfigError) -> StreamAddress? {
        guard let schemeEnd = text.firstRange(of: "://") else {
            // Scheme-less forms people paste: `twitch.tv/name`, `www.youtube.com/watch?v=…`.
            guard let slash = text.firstIndex(of: "/"), text[..<slash].contains("."),
                  !text[..<slash].contains(" ") else { return nil }
            return try detect("https://" + text)
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        switch scheme {
        case "ws", "wss":
            return StreamAddress(service: "websocket", streamID: "", server: text)
        case "irc", "ircs":
            return try ircAddress(text)
        case "http", "https":
            break
        default:
            throw FeedConfigError("\(StreamAddress.shown(text)): \(scheme):// is not a stream URL. \(supportedHelp)")
        }
        guard let components = URLComponents(string: text), let host = components.host?.lowercased(), !host.isEmpty
        else {
            throw FeedConfigError("\(StreamAddress.shown(text)): not a valid URL. \(supportedHelp)")
        }
        guard let row = rows.first(where: { row in
            row.hosts.contains { host == $0 || host.hasSuffix("." + $0) }
        }) else {
            throw FeedConfigError("\(StreamAddress.shown(text)): \(host) is not a platform the bar reads. \(supportedHelp)")
        }
        switch row.streamID {
        case .wholeURL:
            return StreamAddress(service: row.service, streamID: text)
        case .firstPathComponent:
            guard let first = components.path.split(separator: "/").first, !first.isEmpty else {
                throw FeedConfigError("\(StreamAddress.shown(text)): a \(row.platform) URL needs the channel, e.g. https://\(row.hosts[0])/NAME")
            }
            return StreamAddress(service: row.service, streamID: canonicalID(String(first), service: row.service))
        }
    }

    /// `ircs://host[:port]/#channel` → the irc service with that server and channel.
    static func ircAddress(_ text: String) throws(FeedConfigError) -> StreamAddress {
        guard let schemeEnd = text.firstRange(of: "://") else { return StreamAddress(service: "irc", streamID: "") }
        let rest = text[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else {
            throw FeedConfigError("\(StreamAddress.shown(text)): an IRC address needs the channel, e.g. ircs://irc.libera.chat/#channel")
        }
        var channel = String(rest[rest.index(after: slash)...])
        if !channel.hasPrefix("#") && !channel.hasPrefix("%23") { channel = "#" + channel }
        channel = channel.replacing("%23", with: "#")
        guard channel.count > 1 else {
            throw FeedConfigError("\(StreamAddress.shown(text)): an IRC address needs the channel, e.g. ircs://irc.libera.chat/#channel")
        }
        return StreamAddress(service: "irc", streamID: channel,
                             server: String(text[..<schemeEnd.upperBound]) + String(rest[..<slash]))
    }
}
