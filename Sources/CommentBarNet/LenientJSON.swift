// SPDX-License-Identifier: GPL-2.0-or-later
/// JSON fields that the Japanese platforms send as a number on one message and as a
/// string of digits on the next (SHOWROOM's `"t":"1"` and `"t":8`, OPENREC's `"type":"6"`).
/// Decoding never fails on them: anything else (null, an object, a fraction) is nil.
package struct LenientInt: Decodable, Sendable, Equatable {
    package var value: Int?

    package init(_ value: Int?) { self.value = value }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self), text.utf8.count <= 20 {
            value = Int(text)
        } else {
            value = nil
        }
    }
}

/// A text field that some messages send as a number (ids, counts): the digits as text.
package struct LenientString: Decodable, Sendable, Equatable {
    package var value: String?

    package init(_ value: String?) { self.value = value }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let number = try? container.decode(Int.self) {
            value = String(number)
        } else {
            value = nil
        }
    }
}
