// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import CommentBarSupport

/// A row's text as the HTML OneComme's `data.comment` holds, which templates put in the page as
/// markup (`v-html`, `innerHTML`): every character escaped, so a comment can never be markup; an
/// emote an `<img>` of its picture. A picture a browser source would load must not lead to this
/// machine or the streamer's network: only `https://` on a host name that is not an IP address,
/// `localhost` or a `.local` name (`AddressPolicy`); another emote stays its text.
enum OneCommeHTML {
    static func comment(_ line: ChatLine) -> String {
        let scalars = Array(line.text.unicodeScalars)
        var html = ""
        var position = 0
        for emote in line.emotes.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let range = emote.range.clamped(to: position..<scalars.count)
            guard !range.isEmpty, range.lowerBound >= position, let url = pictureURL(emote.url) else { continue }
            html += escaped(scalars[position..<range.lowerBound])
            html += "<img src=\"\(escaped(url.unicodeScalars[...]))\" alt=\"\(escaped(emote.name.unicodeScalars[...]))\" "
                + "class=\"emoji\">"
            position = range.upperBound
        }
        return html + escaped(scalars[position...])
    }

    /// The emote's picture address, when a page may load it.
    static func pictureURL(_ url: String) -> String? {
        guard url.hasPrefix("https://"), url.unicodeScalars.count <= 2048 else { return nil }
        let rest = url.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else { return nil }
        var host = String(authority)
        if host.hasPrefix("[") { return nil }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        return AddressPolicy.refusal(ofName: host) == nil ? url : nil
    }

    /// Inert in a page (`MarkupEscaping`).
    static func escaped<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> String { MarkupEscaping.escaped(scalars, for: .html) }
}
