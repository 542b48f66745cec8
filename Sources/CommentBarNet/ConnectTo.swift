// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// `COMMENTBAR_CONNECT_TO=HOST:PORT:ADDR:PORT[,…]`, curl's `--connect-to`: a connection
/// meant for HOST:PORT goes to ADDR:PORT instead, while the host name, its TLS
/// certificate check and the Host header stay HOST's. Tests send real host names to
/// loopback servers this way. An empty HOST or PORT matches any; an empty ADDR or PORT
/// keeps the original. IPv6 addresses go in brackets.
package struct ConnectTo: Sendable, Equatable {
    package static let variable = "COMMENTBAR_CONNECT_TO"

    package struct Rule: Sendable, Equatable {
        var host: String?
        var port: Int?
        var toHost: String?
        var toPort: Int?
    }

    package struct SetupError: Error, CustomStringConvertible {
        package var description: String
    }

    package var rules: [Rule] = []

    package init(rules: [Rule] = []) {
        self.rules = rules
    }

    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(SetupError) -> ConnectTo
    {
        guard let text = environment[variable], !text.isEmpty else { return ConnectTo() }
        return try parse(text)
    }

    package static func parse(_ text: String) throws(SetupError) -> ConnectTo {
        var rules: [Rule] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: true) {
            let fields = splitFields(String(entry))
            func refuse(_ why: String) -> SetupError {
                SetupError(description: "\(variable): bad entry \(String(reflecting: String(entry.prefix(200)))): \(why) (expected HOST:PORT:ADDR:PORT)")
            }
            guard fields.count == 4 else { throw refuse("it needs four fields") }
            func port(_ text: String) throws(SetupError) -> Int? {
                if text.isEmpty { return nil }
                guard let value = Int(text), (1...65535).contains(value) else { throw refuse("bad port \(text)") }
                return value
            }
            rules.append(Rule(host: fields[0].isEmpty ? nil : fields[0].lowercased(), port: try port(fields[1]),
                              toHost: fields[2].isEmpty ? nil : fields[2], toPort: try port(fields[3])))
        }
        return ConnectTo(rules: rules)
    }

    /// Where to connect for `host`:`port`: the first matching rule's target, else the same.
    package func target(host: String, port: Int) -> (host: String, port: Int) {
        guard let rule = rule(host: host, port: port) else { return (host, port) }
        return (rule.toHost ?? host, rule.toPort ?? port)
    }

    /// The address the first matching rule sends `host`:`port` to, or nil (no rule, or one that
    /// keeps the host and changes only the port). An address named so is the operator's (or a
    /// test's) explicit choice, which the address policy does not second-guess; the connection
    /// then really goes there, whether the rule names the host or matches any (an empty HOST).
    package func address(host: String, port: Int) -> String? {
        rule(host: host, port: port)?.toHost
    }

    private func rule(host: String, port: Int) -> Rule? {
        let key = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()).lowercased() : host.lowercased()
        return rules.first { ($0.host == nil || $0.host == key) && ($0.port == nil || $0.port == port) }
    }

    /// `a:1:[::1]:2` → ["a", "1", "::1", "2"]: colons inside brackets do not split.
    private static func splitFields(_ text: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var inBrackets = false
        for character in text {
            switch character {
            case "[": inBrackets = true
            case "]": inBrackets = false
            case ":" where !inBrackets:
                fields.append(current)
                current = ""
            default: current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
