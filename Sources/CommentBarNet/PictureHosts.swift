// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The hosts each platform really serves its pictures (and, for niconico, its comment
/// streams) from: where they are known, a URL an API or a relay names elsewhere is refused
/// before any fetch, and its emote shows as text. `*.` names a host's subdomains.
package enum PictureHosts {
    package static let twitch = ["static-cdn.jtvnw.net"]
    package static let betterTTV = ["cdn.betterttv.net"]
    package static let frankerFaceZ = ["cdn.frankerfacez.com"]
    package static let sevenTV = ["cdn.7tv.app"]
    package static let youTube = ["yt3.ggpht.com", "yt4.ggpht.com", "*.ggpht.com", "*.googleusercontent.com"]
    /// niconico's comment server (`viewUri`) and its picture CDN.
    package static let niconico = ["*.nicovideo.jp", "*.nimg.jp"]

    /// Whether `url` is https on one of `hosts` (and its default port).
    package static func allows(_ url: String, hosts: [String]) -> Bool {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
              let host = components.host?.lowercased(), components.port == nil || components.port == 443,
              components.user == nil, components.password == nil else { return false }
        return hosts.contains { allowed in
            allowed.hasPrefix("*.") ? host.hasSuffix(String(allowed.dropFirst())) : host == allowed
        }
    }
}
