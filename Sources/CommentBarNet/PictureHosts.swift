// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The one check of a picture URL against the hosts a platform serves its pictures from (each
/// platform's `ServiceDescription.pictureHosts`, in its own folder): where they are known, a URL
/// an API or a relay names elsewhere is refused before any fetch.
package enum PictureHosts {
    /// Whether `url` is https on one of `hosts` (and its default port); `*.` names a host's subdomains.
    package static func allows(_ url: String, hosts: [String]) -> Bool {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
              let host = components.host?.lowercased(), components.port == nil || components.port == 443,
              components.user == nil, components.password == nil else { return false }
        return hosts.contains { allowed in
            allowed.hasPrefix("*.") ? host.hasSuffix(String(allowed.dropFirst())) : host == allowed
        }
    }
}
