// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// Engine.IO protocol 3 over WebSocket, one packet per message: a packet-type digit, then
/// the payload. `message` packets carry a Socket.IO packet. Anything else is refused with a
/// reason (the caller logs it once and skips it).
enum EngineIOPacket: Equatable {
    /// `0{json}`: the session's id and how often the client must ping.
    case open(Handshake)
    /// `1`
    case close
    /// `2[probe]`
    case ping
    /// `3[probe]`
    case pong
    /// `4…`
    case message(SocketIOPacket)
    /// `5`
    case upgrade
    /// `6`
    case noop

    struct Handshake: Decodable, Equatable {
        var sid: String?
        /// Milliseconds.
        var pingInterval: Int?
        var pingTimeout: Int?
    }

    struct ParseError: Error, Equatable {
        var reason: String
    }

    static func parse(_ text: String) throws(ParseError) -> EngineIOPacket {
        guard let type = text.unicodeScalars.first else { throw ParseError(reason: "an empty Engine.IO packet") }
        let payload = String(text.unicodeScalars.dropFirst())
        switch type {
        case "0":
            do {
                return .open(try JSONDecoder().decode(Handshake.self, from: Data(payload.utf8)))
            } catch {
                throw ParseError(reason: "an Engine.IO open packet without its JSON")
            }
        case "1": return .close
        case "2": return .ping
        case "3": return .pong
        case "4": return .message(try SocketIOPacket.parse(payload))
        case "5": return .upgrade
        case "6": return .noop
        default: throw ParseError(reason: "an unknown Engine.IO packet type \(String(reflecting: String(type)))")
        }
    }
}

/// A Socket.IO (protocol 4, as Engine.IO 3 servers speak it) packet: a type digit, an
/// optional `/namespace,`, an optional acknowledgement id, then a JSON array for events.
/// Only the default namespace is read.
enum SocketIOPacket: Equatable {
    /// `0`: joined the namespace.
    case connect
    /// `1`: left it.
    case disconnect
    /// `2["name", args…]`: only string arguments are kept (others are nil).
    case event(name: String, arguments: [String?])
    /// `4…`: the server refused us.
    case error(String)

    static func parse(_ text: String) throws(EngineIOPacket.ParseError) -> SocketIOPacket {
        var rest = Substring(text)
        guard let type = rest.unicodeScalars.first else {
            throw EngineIOPacket.ParseError(reason: "an empty Socket.IO packet")
        }
        rest = rest.dropFirst()
        if rest.hasPrefix("/") {
            guard let comma = rest.firstIndex(of: ",") else {
                throw EngineIOPacket.ParseError(reason: "a Socket.IO namespace without its comma")
            }
            guard rest[..<comma] == "/" else {
                throw EngineIOPacket.ParseError(reason: "a Socket.IO packet for another namespace")
            }
            rest = rest[rest.index(after: comma)...]
        }
        // An acknowledgement id: digits before the data. We never answer them (read-only).
        rest = rest.drop { ("0"..."9").contains($0) }
        switch type {
        case "0": return .connect
        case "1": return .disconnect
        case "2":
            let arguments: [EventArgument]
            do {
                arguments = try JSONDecoder().decode([EventArgument].self, from: Data(rest.utf8))
            } catch {
                throw EngineIOPacket.ParseError(reason: "a Socket.IO event that is not a JSON array")
            }
            guard case .some(.some(let name)) = arguments.first?.text else {
                throw EngineIOPacket.ParseError(reason: "a Socket.IO event without its name")
            }
            return .event(name: name, arguments: arguments.dropFirst().map(\.text))
        case "4":
            return .error(String(rest.prefix(200)))
        default:
            throw EngineIOPacket.ParseError(reason: "an unsupported Socket.IO packet type \(String(reflecting: String(type)))")
        }
    }

    /// One element of an event's array: its text if it is a string.
    private struct EventArgument: Decodable {
        var text: String?
        init(from decoder: any Decoder) throws {
            text = try? decoder.singleValueContainer().decode(String.self)
        }
    }
}
