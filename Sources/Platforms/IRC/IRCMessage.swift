// SPDX-License-Identifier: GPL-2.0-or-later
/// One IRC line, parsed per the IRCv3 message format:
/// `['@' tags ' '] [':' source ' '] command [params] [' :' trailing]`.
///
/// The parser never traps: a line it cannot make sense of is an `IRCMessage.ParseError`,
/// which the connection logs (rate-limited) and skips.
public struct IRCMessage: Sendable, Equatable {
    /// Tag values are unescaped; a tag without `=` has the empty value.
    public var tags: [String: String]
    /// The raw source (`nick!user@host` or a server name), nil if the line had none.
    public var source: String?
    /// Upper-cased: `PRIVMSG`, `PING`, or three digits such as `001`.
    public var command: String
    /// Middle parameters then the trailing one, if any.
    public var params: [String]

    public init(tags: [String: String] = [:], source: String? = nil, command: String, params: [String] = []) {
        self.tags = tags
        self.source = source
        self.command = command
        self.params = params
    }

    /// The nickname part of the source (before `!` or `@`).
    public var sourceNick: String? {
        guard let source, !source.isEmpty else { return nil }
        let end = source.firstIndex(where: { $0 == "!" || $0 == "@" }) ?? source.endIndex
        let nick = source[..<end]
        return nick.isEmpty ? nil : String(nick)
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// More parameters than any real server sends; extra ones are a malformed line.
    static let maxParams = 32

    public static func parse(_ line: String) throws(ParseError) -> IRCMessage {
        // Bytes, not Characters: the delimiters are ASCII and never occur inside a UTF-8
        // sequence, while a Character may glue a space to a following combining mark.
        var rest = Array(line.utf8)[...]
        // Line terminators are the decoder's business, but a stray one must not end up in a parameter.
        while let last = rest.last, last == cr || last == lf { rest.removeLast() }
        rest = rest.drop(while: { $0 == space })

        var tags: [String: String] = [:]
        if rest.first == at {
            let (word, after) = splitWord(rest.dropFirst())
            guard !after.isEmpty else { throw ParseError("only tags, no command") }
            tags = parseTags(word)
            rest = after
        }
        var source: String?
        if rest.first == colon {
            let (word, after) = splitWord(rest.dropFirst())
            guard !after.isEmpty else { throw ParseError("only a source, no command") }
            source = text(word)
            rest = after
        }
        let (commandWord, afterCommand) = splitWord(rest)
        guard !commandWord.isEmpty else { throw ParseError("empty line") }
        guard isValidCommand(commandWord) else { throw ParseError("bad command") }

        var params: [String] = []
        rest = afterCommand
        while !rest.isEmpty {
            if rest.first == colon {
                params.append(text(rest.dropFirst()))
                break
            }
            let (word, after) = splitWord(rest)
            params.append(text(word))
            rest = after
            guard params.count <= maxParams else { throw ParseError("too many parameters") }
        }
        return IRCMessage(tags: tags, source: source, command: text(commandWord).uppercased(), params: params)
    }

    private static let space = UInt8(ascii: " "), colon = UInt8(ascii: ":"), at = UInt8(ascii: "@")
    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), backslash = UInt8(ascii: "\\")

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The first space-separated word, and what follows the spaces after it.
    private static func splitWord(_ bytes: ArraySlice<UInt8>) -> (word: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        guard let index = bytes.firstIndex(of: space) else { return (bytes, bytes[bytes.endIndex...]) }
        return (bytes[..<index], bytes[index...].drop(while: { $0 == space }))
    }

    /// Letters (`PRIVMSG`) or exactly three digits (`001`).
    private static func isValidCommand(_ word: ArraySlice<UInt8>) -> Bool {
        if word.count == 3, word.allSatisfy({ (0x30...0x39).contains($0) }) { return true }
        return word.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    static func parseTags(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var tags: [String: String] = [:]
        for item in bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                let key = item[..<equals]
                guard !key.isEmpty else { continue }
                tags[text(key)] = unescapeTagValue(item[item.index(after: equals)...])
            } else {
                tags[text(item)] = ""
            }
        }
        return tags
    }

    /// IRCv3 tag value escapes: `\:` `;`, `\s` space, `\\` `\`, `\r` CR, `\n` LF;
    /// any other escaped character stands for itself, a lone trailing `\` is dropped.
    public static func unescapeTagValue(_ value: some StringProtocol) -> String {
        unescapeTagValue(Array(value.utf8)[...])
    }

    static func unescapeTagValue(_ value: ArraySlice<UInt8>) -> String {
        guard value.contains(backslash) else { return text(value) }
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var escaping = false
        for byte in value {
            if escaping {
                switch byte {
                case colon: out.append(UInt8(ascii: ";"))
                case UInt8(ascii: "s"): out.append(space)
                case UInt8(ascii: "r"): out.append(cr)
                case UInt8(ascii: "n"): out.append(lf)
                default: out.append(byte)
                }
                escaping = false
            } else if byte == backslash {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        return text(out[...])
    }
}
