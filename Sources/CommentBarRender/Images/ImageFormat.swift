// SPDX-License-Identifier: GPL-2.0-or-later
/// The only picture formats the bar decodes: PNG, JPEG, GIF and WebP, told by their magic
/// bytes. gdk-pixbuf would otherwise sniff and pick any installed loader (SVG through librsvg,
/// XPM, TGA, ICO, ANI, TIFF…), and some of those can take many seconds on a hostile file.
enum ImageFormat: String, CaseIterable {
    case png, jpeg, gif, webp

    /// gdk-pixbuf's loader name for the format (`gdk_pixbuf_loader_new_with_type`).
    var loaderName: String { rawValue }

    /// The format `bytes` start with, or nil for anything else.
    init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<(offset + magic.count)]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// What a log line says of a refused picture.
    static let refusal = "not a PNG, JPEG, GIF or WebP picture"
}
