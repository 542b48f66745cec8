// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import FoundationEssentials

/// What a programme's watch page says: the `embedded-data` script's `data-props`
/// attribute (HTML-escaped JSON), decoded down to the few paths the feed needs.
struct WatchPage: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Reserved or open but not begun (`BEFORE_RELEASE`, `RELEASED`).
        case notStarted
        case onAir
        case ended
        case other(String)
    }

    var programmeID: String
    var state: State
    /// `program.beginTime` (unix seconds): when the broadcast began, not when the doors opened.
    var beginTime: Double?
    /// `site.relive.webSocketUrl`: the seat WebSocket; empty when this visitor may not watch.
    var webSocketURL: String
    /// Whose programme it is, as niconico's watch paths name them: a channel (`ch…`), a user
    /// (`user/…`), or (pages from before communities ended in 2024) a community (`co…`): the
    /// channel the viewer memory keeps viewers of, the same for every programme (nil: not named).
    var broadcaster: String? = nil

    struct ParseError: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private struct Props: Decodable {
        struct Program: Decodable {
            var nicoliveProgramId: String?
            var status: String?
            var beginTime: Double?
            var supplier: Supplier?
        }
        /// Who broadcasts: `supplierType` is `user` or `channel`; `programProviderId` the user's number.
        struct Supplier: Decodable {
            var supplierType: String?
            var programProviderId: LenientString?
        }
        /// The channel or community the programme belongs to (`type`, `id`: `ch…` or `co…`).
        struct SocialGroup: Decodable {
            var type: String?
            var id: String?
        }
        struct Site: Decodable {
            struct Relive: Decodable { var webSocketUrl: String? }
            var relive: Relive?
        }
        var program: Program?
        var site: Site?
        var socialGroup: SocialGroup?
    }


    static func parse(html: [UInt8]) throws(ParseError) -> WatchPage {
        guard let attribute = embeddedDataProps(html) else {
            throw ParseError("the watch page has no embedded-data")
        }
        let props: Props
        do {
            props = try JSONDecoder().decode(Props.self, from: Data(HTMLEntities.unescape(attribute).utf8))
        } catch {
            throw ParseError("the watch page's embedded-data is not the expected JSON")
        }
        guard let program = props.program, let status = program.status else {
            throw ParseError("the watch page's embedded-data names no programme")
        }
        let state: State
        switch status {
        case "BEFORE_RELEASE", "RELEASED": state = .notStarted
        case "ON_AIR": state = .onAir
        case "ENDED": state = .ended
        default: state = .other(String(status.prefix(40)))
        }
        return WatchPage(programmeID: String((program.nicoliveProgramId ?? "").prefix(40)), state: state,
                         beginTime: program.beginTime.flatMap { $0.isFinite && $0 > 0 ? $0 : nil },
                         webSocketURL: props.site?.relive?.webSocketUrl ?? "",
                         broadcaster: broadcaster(supplier: program.supplier, group: props.socialGroup))
    }

    /// A channel's programme is the channel's (`ch…`); a user's is the user's (`user/…`), whatever
    /// community it was once in; a page naming only a community gives the community (`co…`).
    private static func broadcaster(supplier: Props.Supplier?, group: Props.SocialGroup?) -> String? {
        let groupID = group?.id.flatMap { id in ["ch", "co"].contains(id.prefix(2)) && isNumber(id.dropFirst(2)) ? id : nil }
        if supplier?.supplierType == "channel" || group?.type == "channel", let groupID, groupID.hasPrefix("ch") {
            return groupID
        }
        if supplier?.supplierType != "channel", let user = supplier?.programProviderId?.value, isNumber(user[...]) {
            return "user/\(user)"
        }
        return groupID
    }

    /// 1 to 20 ASCII digits.
    private static func isNumber(_ text: Substring) -> Bool {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The raw (still escaped) value of `data-props` on the tag whose id is `embedded-data`.
    static func embeddedDataProps(_ html: [UInt8]) -> String? {
        let text = String(decoding: html, as: UTF8.self)
        guard let idRange = text.firstRange(of: "id=\"embedded-data\"") else { return nil }
        // The attributes of that one tag: from its `<` to its `>` (attribute values never hold
        // a raw `>` once HTML-escaped, and `data-props` always is).
        let tagStart = text[..<idRange.lowerBound].lastIndex(of: "<") ?? idRange.lowerBound
        let tagEnd = text[idRange.upperBound...].firstIndex(of: ">") ?? text.endIndex
        let tag = text[tagStart..<tagEnd]
        guard let start = tag.firstRange(of: "data-props=\"") else { return nil }
        let value = tag[start.upperBound...]
        guard let end = value.firstIndex(of: "\"") else { return nil }
        return String(value[..<end])
    }
}

/// HTML character references in an attribute value: the named ones a JSON attribute
/// uses, and numeric ones (`&#39;`, `&#x27;`). Anything else is left as it is.
enum HTMLEntities {
    static let named: [Substring: String] = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": "\u{A0}"]

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            let name = rest[afterAmp...].prefix(12).prefix { $0 != ";" }
            let semicolon = rest.index(afterAmp, offsetBy: name.count)
            if semicolon < rest.endIndex, rest[semicolon] == ";", let value = decode(name) {
                out += value
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out += "&"
                rest = rest[afterAmp...]
            }
        }
        out += rest
        return out
    }

    private static func decode(_ name: Substring) -> String? {
        if let value = named[name] { return value }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let code: UInt32?
        if digits.hasPrefix("x") || digits.hasPrefix("X") {
            code = UInt32(digits.dropFirst(), radix: 16)
        } else {
            code = UInt32(digits, radix: 10)
        }
        guard let code, code != 0, let scalar = Unicode.Scalar(code) else { return nil }
        return String(Character(scalar))
    }
}
