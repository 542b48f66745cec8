// SPDX-License-Identifier: GPL-2.0-or-later
import CGLib

/// SHA-256 from GLib's GChecksum: GLib is in the renderer already (Pango loads it), where
/// swift-crypto would compile a second copy of BoringSSL (swift-nio-ssl has the first) into every
/// build, about two minutes of CPU for the two hashes the renderer takes (the disk cache's file
/// names, Streamer.bot's WebSocket password answer).
public enum GLibSHA256 {
    public static let digestLength = 32

    /// The 32 bytes of `bytes`' SHA-256.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        // GLib returns NULL only for a checksum type it does not know; SHA-256 is always there.
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return digest }
        defer { g_checksum_free(checksum) }
        bytes.withUnsafeBufferPointer { buffer in
            g_checksum_update(checksum, buffer.baseAddress, gssize(buffer.count))
        }
        var length = gsize(digestLength)
        digest.withUnsafeMutableBufferPointer { buffer in
            g_checksum_get_digest(checksum, buffer.baseAddress, &length)
        }
        return digest
    }

    /// The digest in lower-case hex, 64 characters.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digestLength * 2)
        for byte in digest(bytes) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
