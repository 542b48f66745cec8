// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CCairo

/// PNG output of a frame, through Cairo (which un-premultiplies for PNG).
public enum PNGFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func write(_ frame: FrameBuffer, to path: String) throws(WriteError) {
        let surface: OpaquePointer = cairo_image_surface_create_for_data(
            frame.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(frame.width), Int32(frame.height), Int32(frame.stride))
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw WriteError(description: "\(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
