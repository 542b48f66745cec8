// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// One value of a DoAction's flat `args`: Streamer.bot makes each a `%name%` variable of the action.
public enum ActionArgument: Sendable, Equatable, Encodable {
    case text(String)
    case number(Double)
    case integer(Int)
    case flag(Bool)

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .flag(let value): try container.encode(value)
        }
    }
}

/// One request to run an action by name with flat arguments, in the three shapes of
/// docs.streamer.bot's API: the HTTP server's body `{"action":{"name":…},"args":{…}}` (answered
/// 204), and the WebSocket and UDP servers' `{"request":"DoAction","id":…,"action":{…},"args":{…}}`.
public struct DoAction: Sendable, Equatable {
    public var action: String
    public var args: [String: ActionArgument]

    public init(action: String, args: [String: ActionArgument]) {
        self.action = action
        self.args = args
    }

    struct ActionName: Encodable {
        var name: String
    }

    /// `args` as one JSON object, each value put in its keyed container by its type: JSONEncoder
    /// makes a whole nested encoder for every custom `Encodable` value (an `ActionArgument` in a
    /// dictionary), which was most of an action's encoding; a `String`, `Double`, `Int` or `Bool`
    /// put by key costs it none.
    struct Arguments: Encodable {
        var values: [String: ActionArgument]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedCodingKey.self)
            for (name, value) in values {
                let key = NamedCodingKey(name)
                switch value {
                case .text(let text): try container.encode(text, forKey: key)
                case .number(let number): try container.encode(number, forKey: key)
                case .integer(let integer): try container.encode(integer, forKey: key)
                case .flag(let flag): try container.encode(flag, forKey: key)
                }
            }
        }
    }

    struct HTTPBody: Encodable {
        var action: ActionName
        var args: Arguments
    }

    struct Request: Encodable {
        var request = "DoAction"
        var id: String?
        var action: ActionName
        var args: Arguments
    }

    /// One encoder for every action (made once: a new one per action cost a tenth of its encoding).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encoded<T: Encodable>(_ value: T) -> [UInt8] {
        // Every value is a string, a finite number or a flag: encoding cannot fail.
        (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }

    /// The HTTP server's body.
    var httpBody: [UInt8] { Self.encoded(HTTPBody(action: ActionName(name: action), args: Arguments(values: args))) }

    /// The WebSocket server's request (`id` names its answer) and the UDP server's (no id).
    func request(id: String?) -> [UInt8] {
        Self.encoded(Request(id: id, action: ActionName(name: action), args: Arguments(values: args)))
    }
}
