// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials

/// One WebSocket message of OneComme's `/sub` (OneComme/OneSDK's `Action` types): `{"type":…,
/// "data":…}`. Templates subscribe by type; a client of `/sub?p=comments,deleted` gets those only.
enum OneCommeMessage {
    private struct Typed<Payload: Encodable>: Encodable {
        var type: String
        var data: Payload
    }

    private struct Bare: Encodable {
        var type: String
    }

    struct Comments: Encodable {
        var comments: [OneCommeComment]
        var options: [String: Bool] = [:]
    }

    struct Deleted: Encodable {
        var id: String
        var message: String
    }

    /// What a client gets first: the kept comments and the connections (the rest of OneComme's
    /// `connected` data, its settings, order list and set list, is empty here).
    struct Connected: Encodable {
        struct Empty: Encodable {}
        var comments: [OneCommeComment]
        var services: [OneCommeStream.Service]
        var config = Empty()
        var waitingList: [OneCommeOrderItem]
        var setList = Empty()
    }

    struct Meta: Encodable {
        var service: OneCommeStream.Service
        var meta: OneCommeStream.Service.Meta
    }

    /// One encoder for every message (made once, not per comment).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }

    static func message<T: Encodable>(_ type: String, _ data: T) -> [UInt8] { encode(Typed(type: type, data: data)) }
    static func bare(_ type: String) -> [UInt8] { encode(Bare(type: type)) }
}
