// SPDX-License-Identifier: GPL-2.0-or-later
/// A request's path as checked segments, before any file is looked for: each segment
/// percent-decoded once and refused if it is empty, `.` or `..`, starts with a dot (hidden files,
/// and `..` however it was written: `%2e%2e`), or holds a slash, a backslash, a control character
/// or bytes that are not UTF-8 (`%2f`, `%00`). What passes names a file inside the folder it is
/// looked for in; `TemplateFiles` then refuses links on the way.
enum TemplatePath {
    static let maxSegments = 16
    static let maxSegmentBytes = 255

    /// The path's segments (the query left off), or nil: refused. A path ending in `/` names
    /// its folder's `index.html`.
    static func segments(_ path: Substring) -> [String]? {
        let withoutQuery = path.prefix { $0 != "?" && $0 != "#" }
        var parts = withoutQuery.split(separator: "/", omittingEmptySubsequences: false).map { $0 }
        guard parts.first == "" else { return nil }
        parts.removeFirst()
        if parts.last == "" {
            parts.removeLast()
            parts.append("index.html")
        }
        guard !parts.isEmpty, parts.count <= maxSegments else { return nil }
        var segments: [String] = []
        for part in parts {
            guard let segment = decoded(part), allowed(segment) else { return nil }
            segments.append(segment)
        }
        return segments
    }

    static func allowed(_ segment: String) -> Bool {
        guard !segment.isEmpty, segment.utf8.count <= maxSegmentBytes, !segment.hasPrefix(".") else { return false }
        return !segment.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `%XX` decoded once (never twice: `%252e` is the text `%2e`); nil for a bad escape or bytes
    /// that are not UTF-8.
    static func decoded(_ part: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = part.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
