// SPDX-License-Identifier: GPL-2.0-or-later
/// Where a JPEG's scans start, read from its markers before any byte reaches the decoder.
///
/// A progressive JPEG is decoded scan by scan, and gdk-pixbuf's loader redraws the whole picture
/// after each one: a file of a thousand empty scans (a few bytes each) costs seconds inside one
/// write of a few KiB, where no time budget can look at the clock. So the scans are counted first
/// (more than `maxScans` is refused: real encoders use about ten), and the bytes are fed to the
/// loader in slices that never hold more than one scan's start, so one slice costs one scan at
/// most. This only walks the markers (each segment's length; a scan's data up to the next
/// marker); decoding stays gdk-pixbuf's, which judges everything else.
struct JPEGScans {
    /// More scans than this are refused (libjpeg's progressive default has 10, mozjpeg's about as many).
    static let maxScans = 40

    /// The offset of each scan's SOS marker, in order.
    var starts: [Int] = []

    /// Walks the markers of `bytes` (a JPEG: it starts with SOI); stops early past `limit` scans.
    /// A damaged file is walked as far as it reads; the decoder then says what is wrong with it.
    init(_ bytes: [UInt8], limit: Int = JPEGScans.maxScans) {
        let count = bytes.count
        var index = 2
        while index < count, starts.count <= limit {
            guard bytes[index] == 0xFF else { return }
            while index < count, bytes[index] == 0xFF { index += 1 }  // fill bytes
            guard index < count else { return }
            let marker = bytes[index]
            let markerStart = index - 1
            index += 1
            switch marker {
            case 0xD9:  // EOI
                return
            case 0x01, 0xD0...0xD8:  // TEM, RSTn, SOI: no length
                continue
            default:
                guard index + 1 < count else { return }
                let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                guard length >= 2 else { return }
                index += length
                guard marker == 0xDA else { continue }
                starts.append(markerStart)
                // The scan's entropy-coded data runs to the next marker: an 0xFF that is not a
                // stuffed 0xFF00 nor a restart marker.
                while index + 1 < count {
                    if bytes[index] == 0xFF, bytes[index + 1] != 0x00, !(0xD0...0xD7).contains(bytes[index + 1]) { break }
                    index += 1
                }
            }
        }
    }

    var isOverLimit: Bool { starts.count > Self.maxScans }

    /// Where each slice of at most `sliceBytes` ends so that no slice holds the starts of two scans:
    /// every scan's marker begins a slice of its own.
    func sliceEnds(count: Int, sliceBytes: Int) -> [Int] {
        var ends: [Int] = []
        var offset = 0
        var next = starts.makeIterator()
        var nextStart = next.next()
        while offset < count {
            // Skip scan starts at or before the slice's own start.
            while let start = nextStart, start <= offset { nextStart = next.next() }
            var end = min(count, offset + sliceBytes)
            if let start = nextStart, start < end { end = start }
            ends.append(end)
            offset = end
        }
        return ends
    }
}
