// SPDX-License-Identifier: GPL-2.0-or-later

/// One OBS locale file (`plugin/data/locale/<lang>.ini`), read as OBS's text lookup reads it
/// (libobs/util/text-lookup.c, what `obs_module_text` answers from): an entry a line,
/// `Key="value"` (or `Key=word`), a line starting with `#` a comment, a carriage return taken as a
/// space, a UTF-8 byte order mark skipped. A quoted value runs to the quote that closes it on its
/// line (a `\"` does not), and `\n`, `\t`, `\r` and `\"` in it become a line break, a tab, a
/// carriage return and a quote, replaced one after the other over the bytes as OBS does (nothing
/// else is an escape: `\\` stays two characters). A later key replaces an earlier one. A line OBS
/// would read as something other than what it says (an indented key, a space around `=`, a value
/// with no closing quote, text after it) is not guessed at: its number is in `unreadLines`.
struct OBSLocaleFile: Sendable {
    private(set) var words: [String: String] = [:]
    /// The 1-based numbers of the lines that are neither an entry, a comment nor blank.
    private(set) var unreadLines: [Int] = []

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), equals = UInt8(ascii: "=")
    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), hash = UInt8(ascii: "#")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// OBS's `convert_string`, in its order.
    private static let escapes: [(String, String)] = [("\\n", "\n"), ("\\t", "\t"), ("\\r", "\r"), ("\\\"", "\"")]

    init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: Self.byteOrderMark) { bytes.removeFirst(Self.byteOrderMark.count) }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let line = line.map { $0 == UInt8(ascii: "\r") ? Self.space : $0 }
            if line.allSatisfy({ $0 == Self.space || $0 == Self.tab }) || line.first == Self.hash { continue }
            guard let (key, value) = Self.entry(line) else {
                unreadLines.append(index + 1)
                continue
            }
            words[key] = value
        }
    }

    /// `Key="value"` or `Key=word`, trailing blanks allowed; nil for anything else.
    private static func entry(_ line: [UInt8]) -> (String, String)? {
        guard let equalsAt = line.firstIndex(of: equals), equalsAt > 0 else { return nil }
        let key = line[..<equalsAt]
        guard !key.contains(where: { [space, tab, quote, hash].contains($0) }) else { return nil }
        var rest = line[(equalsAt + 1)...]
        while let last = rest.last, last == space || last == tab { rest.removeLast() }
        let value: ArraySlice<UInt8>
        if rest.first == quote {
            guard let closing = closingQuote(in: rest), closing == rest.index(before: rest.endIndex) else { return nil }
            value = rest[rest.index(after: rest.startIndex)..<closing]
        } else {
            guard !rest.isEmpty, !rest.contains(where: { [space, tab, quote, hash, equals].contains($0) }) else { return nil }
            value = rest
        }
        var converted = Array(value)
        for (escape, meaning) in escapes { converted = converted.replacing(Array(escape.utf8), with: Array(meaning.utf8)) }
        return (String(decoding: key, as: UTF8.self), String(decoding: converted, as: UTF8.self))
    }

    /// The quote that ends the quoted value starting `text` (a backslash keeps the next byte in it).
    private static func closingQuote(in text: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        var escaped = false
        for index in text.indices.dropFirst() {
            if escaped {
                escaped = false
            } else if text[index] == backslash {
                escaped = true
            } else if text[index] == quote {
                return index
            }
        }
        return nil
    }
}
