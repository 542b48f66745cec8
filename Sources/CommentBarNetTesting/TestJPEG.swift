// SPDX-License-Identifier: GPL-2.0-or-later
/// A progressive JPEG written marker by marker (one grey component, every coefficient zero), as a
/// hostile picture host makes one: after the DC scan, `acScans` AC scans that each say "nothing
/// here" for every block (one end-of-band run), a few bytes apiece. gdk-pixbuf redraws the whole
/// picture after each scan, so a thousand of them cost seconds in one small write (issue 28).
package enum TestJPEG {
    package static func progressive(width: Int, height: Int, acScans: Int) -> [UInt8] {
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        // An end-of-band run of `blocks`: symbol RRRR0000 with 2^RRRR ≤ blocks, then RRRR extra bits.
        var order = 0
        while 1 << (order + 1) <= blocks { order += 1 }
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        func huffmanTable(_ classAndID: UInt8, symbol: UInt8) -> [UInt8] {
            // One code of one bit, "0", for the one symbol.
            [classAndID, 1] + Array(repeating: 0, count: 15) + [symbol]
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xDB, [0x00] + Array(repeating: 1, count: 64))
        out += segment(0xC2, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        out += segment(0xC4, huffmanTable(0x00, symbol: 0x00))
        out += segment(0xC4, huffmanTable(0x10, symbol: UInt8(order << 4)))
        // DC scan: every block's difference is 0, one "0" bit each.
        out += segment(0xDA, [1, 1, 0x00, 0, 0, 0x00])
        var dc = BitWriter()
        for _ in 0..<blocks { dc.write(0, bits: 1) }
        out += dc.finished()
        for _ in 0..<acScans {
            out += segment(0xDA, [1, 1, 0x00, 1, 63, 0x00])
            var ac = BitWriter()
            ac.write(0, bits: 1)
            ac.write(blocks - (1 << order), bits: order)
            out += ac.finished()
        }
        return out + [0xFF, 0xD9]
    }

    /// Entropy-coded bits, most significant first, an 0xFF byte stuffed with 0x00, padded with ones.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var current = 0
        private var used = 0

        mutating func write(_ value: Int, bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                current = current << 1 | (value >> shift & 1)
                used += 1
                if used == 8 { flush() }
            }
        }

        mutating func finished() -> [UInt8] {
            if used > 0 {
                current = current << (8 - used) | (1 << (8 - used)) - 1
                flush()
            }
            return bytes
        }

        private mutating func flush() {
            bytes.append(UInt8(current))
            if current == 0xFF { bytes.append(0x00) }
            current = 0
            used = 0
        }
    }
}
