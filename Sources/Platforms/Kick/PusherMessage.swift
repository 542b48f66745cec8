// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// One message of the Pusher Channels protocol (version 7), which Kick's chat speaks:
/// `{"event": NAME, "channel": CHANNEL, "data": …}`. Pusher sends `data` as a JSON text
/// inside the JSON (a string), some servers as an object: `decode` takes either.
struct PusherMessage: Sendable, Equatable {
    var event: String
    var channel: String?
    /// The whole frame, decoded again with the event's own type by `decode`.
    var frame: [UInt8]

    struct ParseError: Error, Equatable {
        var reason: String
    }

    private struct Envelope: Decodable {
        var event: String
        var channel: String?
    }

    private struct DataEnvelope<Inner: Decodable>: Decodable {
        var data: DataField<Inner>
    }

    /// `data` as a JSON text holding `Inner`, or `Inner` itself.
    private struct DataField<Inner: Decodable>: Decodable {
        var value: Inner

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                value = try JSONDecoder().decode(Inner.self, from: Data(text.utf8))
            } else {
                value = try container.decode(Inner.self)
            }
        }
    }

    static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> PusherMessage {
        let frame = Array(bytes)
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(frame))
        } catch {
            throw ParseError(reason: "a Pusher message that is not the expected JSON")
        }
        guard !envelope.event.isEmpty, envelope.event.utf8.count <= 200 else {
            throw ParseError(reason: "a Pusher message without a usable event name")
        }
        return PusherMessage(event: envelope.event, channel: envelope.channel, frame: frame)
    }

    /// The event's `data` decoded as `type`.
    func decode<Inner: Decodable>(_ type: Inner.Type) throws(ParseError) -> Inner {
        do {
            return try JSONDecoder().decode(DataEnvelope<Inner>.self, from: Data(frame)).data.value
        } catch {
            throw ParseError(reason: "\(event): the data is not the expected JSON")
        }
    }

    // MARK: what the client sends

    private struct Outgoing<Payload: Encodable>: Encodable {
        var event: String
        var data: Payload
    }

    private struct Subscription: Encodable {
        var auth = ""
        var channel: String
    }

    private struct Empty: Encodable {}

    static func subscribe(_ channel: String) -> String {
        encode(Outgoing(event: "pusher:subscribe", data: Subscription(channel: channel)))
    }

    static let ping = encode(Outgoing(event: "pusher:ping", data: Empty()))
    static let pong = encode(Outgoing(event: "pusher:pong", data: Empty()))

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }
}
