// SPDX-License-Identifier: GPL-2.0-or-later
/// Finds the JSON objects a YouTube page embeds in its scripts (`ytcfg.set({…})`,
/// `var ytInitialData = {…};`) and cuts each out by a bounded scan that only matches braces
/// outside strings; the cut text is then decoded by JSONDecoder, never parsed here.
enum EmbeddedJSON {
    /// The object that starts at the first `{` within a few bytes after `marker`, or nil.
    /// `from` lets a caller look for a later occurrence.
    static func object(after marker: String, in page: [UInt8], from start: Int = 0,
                       maxBytes: Int = 8 << 20) -> (json: ArraySlice<UInt8>, end: Int)? {
        var scanned = 0
        return object(after: marker, in: page, from: start, maxBytes: maxBytes, scanned: &scanned)
    }

    /// As above, adding to `scanned` the bytes the brace matching read. All the scans for one
    /// page together read at most twice its length: a page of markers whose objects never close
    /// once cost up to 8 MiB per marker; now it costs a bounded, linear amount, while a decoy
    /// marker inside a string (which scans on to the page's end) still leaves the real one found.
    static func object(after marker: String, in page: [UInt8], from start: Int, maxBytes: Int,
                       scanned: inout Int) -> (json: ArraySlice<UInt8>, end: Int)? {
        let needle = Array(marker.utf8)
        var searchFrom = start
        while let found = firstIndex(of: needle, in: page, from: searchFrom) {
            var index = found + needle.count
            // Only spaces, `=` or `(` may stand between the name and the object.
            while index < page.count, index - found - needle.count < 8,
                  page[index] == UInt8(ascii: " ") || page[index] == UInt8(ascii: "=") || page[index] == UInt8(ascii: "(") {
                index += 1
            }
            if index < page.count, page[index] == UInt8(ascii: "{") {
                let budget = 2 * page.count - scanned
                guard budget > 0 else { return nil }
                let scan = matchingBrace(in: page, from: index, maxBytes: min(maxBytes, budget))
                scanned += scan.stoppedAt - index
                if let end = scan.end { return (page[index...end], end + 1) }
            }
            searchFrom = found + needle.count
        }
        return nil
    }

    /// Every object after `marker` (a page calls `ytcfg.set` several times), at most `limit`.
    static func objects(after marker: String, in page: [UInt8], limit: Int = 16) -> [ArraySlice<UInt8>] {
        var found: [ArraySlice<UInt8>] = []
        var from = 0
        var scanned = 0  // one budget for all of them
        while found.count < limit,
              let next = object(after: marker, in: page, from: from, maxBytes: 8 << 20, scanned: &scanned) {
            found.append(next.json)
            from = next.end
        }
        return found
    }

    /// The index of the `}` closing the object opened at `open` (nil if it is not closed within
    /// `maxBytes`, or closed by a `]`), and where the scan stopped.
    private static func matchingBrace(in page: [UInt8], from open: Int, maxBytes: Int) -> (end: Int?, stoppedAt: Int) {
        var depth = 0
        var inString = false
        var escaped = false
        var index = open
        let limit = min(page.count, open + maxBytes)
        while index < limit {
            let byte = page[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return (byte == UInt8(ascii: "}") ? index : nil, index + 1) }
            }
            index += 1
        }
        return (nil, index)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
