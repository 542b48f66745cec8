// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// What one entry of a bar's stream list names: a service, its stream id and its
/// server. Written by the streamer as a stream URL (the service is detected from the
/// registry's `StreamURLTable`), as `service:id`, or, in the older single-stream settings,
/// as a service, a stream id and a server.
public struct StreamAddress: Sendable, Hashable, CustomStringConvertible {
    public var service: String
    public var streamID: String
    public var server: String

    public init(service: String, streamID: String, server: String = "") {
        self.service = service
        self.streamID = streamID
        self.server = server
    }

    /// The most streams one bar reads: each is a connection and a share of the renderer.
    public static let maxStreams = 8

    /// The channel this stream is, as the memory, the event API and the doors name it: the stream
    /// id, or for a relay with none its address (two relays are two streams).
    public var channel: String { streamID.isEmpty ? server : streamID }

    /// How a log line or the bar names this stream: `youtube:ID`, or the relay's URL.
    public var description: String {
        "\(service):\(channel)"
    }

    /// One entry of the stream list: a URL (service detected by `table`) or `service:id`
    /// (of a service `table` knows).
    public static func parse(_ text: String, table: StreamURLTable) throws(FeedConfigError) -> StreamAddress {
        let entry = text.trimmingWhitespace(andNewlines: true)
        guard !entry.isEmpty else { throw FeedConfigError("an empty stream entry") }
        if let detected = try table.detect(entry) { return detected }
        if let colon = entry.firstIndex(of: ":") {
            let service = String(entry[..<colon]).lowercased()
            if table.services.contains(service) {
                let id = String(entry[entry.index(after: colon)...])
                return StreamAddress(service: service, streamID: table.canonicalID(id, service: service))
            }
        }
        throw FeedConfigError("\(Self.shown(entry)): not a stream URL or service:id. \(table.supportedHelp)")
    }

    /// The older single-stream settings: a URL of a known platform in the stream id picks
    /// that platform; anything else is the id for the chosen service, as before (which
    /// then judges it: its own message names what it takes).
    public static func legacy(service: String, streamID: String, server: String, table: StreamURLTable) -> StreamAddress {
        let id = streamID.trimmingWhitespace(andNewlines: true)
        if let detected = try? table.detect(id) {
            // A relay's own server setting still wins for services that take one.
            return server.isEmpty || !detected.server.isEmpty
                ? detected : StreamAddress(service: detected.service, streamID: detected.streamID, server: server)
        }
        return StreamAddress(service: service, streamID: streamID, server: server)
    }

    /// The streams of a bar, each once, at most `maxStreams`; what could not be used is
    /// said in `problems` (one line each) and left out, so one bad entry stops nothing else.
    public static func list(_ entries: [String], table: StreamURLTable)
        -> (addresses: [StreamAddress], problems: [String])
    {
        var addresses: [StreamAddress] = []
        var problems: [String] = []
        for entry in entries where !entry.trimmingWhitespace(andNewlines: true).isEmpty {
            do {
                let address = try parse(entry, table: table)
                if addresses.contains(address) { continue }  // the same stream twice is one feed
                guard addresses.count < maxStreams else {
                    problems.append("more than \(maxStreams) streams: \(shown(entry)) and the ones after it are not read")
                    break
                }
                addresses.append(address)
            } catch {
                problems.append(error.message)
            }
        }
        return (addresses, problems)
    }

    static func shown(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(77)) + "…" : text
        return String(reflecting: cut)
    }
}
