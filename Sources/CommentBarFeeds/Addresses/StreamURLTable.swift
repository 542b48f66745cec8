// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// The stream URLs the bar recognises, built from the services' own patterns
/// (`ServiceDescription.urlPatterns`): which service a pasted URL is for. Each platform's
/// parser then reads the URL itself (a YouTube watch URL, a niconico programme…); this
/// table only picks the service, and for some forms the stream id and server.
public struct StreamURLTable: Sendable {
    struct Row: Sendable {
        var service: String
        var pattern: StreamURLPattern
    }

    let rows: [Row]
    /// The ids `service:id` may name.
    public let services: [String]
    /// Services whose ids ignore case: kept lower case, so one stream written two ways is one.
    let caseInsensitiveServices: Set<String>

    public init(_ services: [ServiceDescription]) {
        rows = services.flatMap { service in service.urlPatterns.map { Row(service: service.id, pattern: $0) } }
        self.services = services.map(\.id)
        caseInsensitiveServices = Set(services.filter(\.caseInsensitiveIDs).map(\.id))
    }

    /// The id as the service compares ids: lower case where the platform ignores case.
    func canonicalID(_ id: String, service: String) -> String {
        caseInsensitiveServices.contains(service) ? id.lowercased() : id
    }

    /// For the message an unrecognised URL gets: every pattern, in the registry's order.
    public var supportedHelp: String {
        let platforms = rows.filter { if case .hosts = $0.pattern.match { true } else { false } }.map(\.pattern.shownAs)
        let schemes = rows.filter { if case .schemes = $0.pattern.match { true } else { false } }.map(\.pattern.shownAs)
        let forms = (platforms.isEmpty ? [] : ["a " + platforms.joined(separator: ", ") + " URL"]) + schemes
        return "Paste " + forms.map { $0 + ", " }.joined() + "or service:id."
    }

    /// The address a URL names; nil when the text is not a URL at all (a plain id).
    /// A URL of an unknown host or scheme is an error that names what is supported.
    public func detect(_ text: String) throws(FeedConfigError) -> StreamAddress? {
        guard let schemeEnd = text.firstRange(of: "://") else {
            // Scheme-less forms people paste: `twitch.tv/name`, `www.youtube.com/watch?v=…`.
            guard let slash = text.firstIndex(of: "/"), text[..<slash].contains("."),
                  !text[..<slash].contains(" ") else { return nil }
            return try detect("https://" + text)
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        if let row = rows.first(where: { $0.pattern.matches(scheme: scheme, host: nil) }) {
            return try address(text, row: row)
        }
        guard scheme == "http" || scheme == "https" else {
            throw FeedConfigError("\(StreamAddress.shown(text)): \(scheme):// is not a stream URL. \(supportedHelp)")
        }
        guard let components = URLComponents(string: text), let host = components.host?.lowercased(), !host.isEmpty
        else {
            throw FeedConfigError("\(StreamAddress.shown(text)): not a valid URL. \(supportedHelp)")
        }
        guard let row = rows.first(where: { $0.pattern.matches(scheme: scheme, host: host) }) else {
            throw FeedConfigError("\(StreamAddress.shown(text)): \(host) is not a platform the bar reads. \(supportedHelp)")
        }
        return try address(text, row: row)
    }

    /// What `row`'s pattern makes of `text`.
    private func address(_ text: String, row: Row) throws(FeedConfigError) -> StreamAddress {
        switch row.pattern.streamID {
        case .wholeURL:
            return StreamAddress(service: row.service, streamID: text)
        case .server:
            return StreamAddress(service: row.service, streamID: "", server: text)
        case .read(let read):
            do throws(FeedConfigError) {
                let (streamID, server) = try read(text)
                return StreamAddress(service: row.service, streamID: streamID, server: server)
            } catch {
                throw FeedConfigError("\(StreamAddress.shown(text)): \(error.message)")
            }
        case .firstPathComponent:
            guard let first = URLComponents(string: text)?.path.split(separator: "/").first, !first.isEmpty else {
                let example = if case .hosts(let hosts) = row.pattern.match, let host = hosts.first {
                    " e.g. https://\(host)/NAME"
                } else { "" }
                throw FeedConfigError("\(StreamAddress.shown(text)): a \(row.pattern.shownAs) URL needs the channel,\(example)")
            }
            return StreamAddress(service: row.service, streamID: canonicalID(String(first), service: row.service))
        }
    }
}
