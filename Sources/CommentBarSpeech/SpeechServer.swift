// SPDX-License-Identifier: GPL-2.0-or-later
/// The `host:port` the user typed in `speech_server` (`[v6]:port` for IPv6; the port may be
/// left out for the engine's usual one). It is the only address speech ever contacts, and the
/// user may well mean their own machine, so loopback is allowed here (and only here).
struct SpeechServer: Sendable, Equatable {
    var host: String
    var port: Int

    static func parse(_ text: String, defaultPort: Int) throws(SpeechError) -> SpeechServer {
        let typed = text.trimmingTrailingAndLeadingSpaces()
        guard !typed.isEmpty else { throw SpeechError("no speech server set (host:port)") }
        var host = typed, portText: Substring?
        if typed.hasPrefix("[") {
            guard let close = typed.firstIndex(of: "]") else { throw SpeechError("bad speech server \"\(typed.prefix(80))\"") }
            host = String(typed[typed.index(after: typed.startIndex)..<close])
            let rest = typed[typed.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty {
                throw SpeechError("bad speech server \"\(typed.prefix(80))\"")
            }
        } else if let colon = typed.lastIndex(of: ":") {
            host = String(typed[..<colon])
            portText = typed[typed.index(after: colon)...]
        }
        let port = try portText.map { text throws(SpeechError) -> Int in
            guard let port = Int(text), (1...65535).contains(port) else {
                throw SpeechError("bad port in speech server \"\(typed.prefix(80))\"")
            }
            return port
        } ?? defaultPort
        let allowed = host.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || ".-:".unicodeScalars.contains($0)
        }
        guard !host.isEmpty, host.count <= 253, allowed else {
            throw SpeechError("bad host in speech server \"\(typed.prefix(80))\"")
        }
        return SpeechServer(host: host, port: port)
    }

    /// For a URL: IPv6 literals in brackets.
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension String {
    func trimmingTrailingAndLeadingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
