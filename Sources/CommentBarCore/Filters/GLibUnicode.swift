// SPDX-License-Identifier: GPL-2.0-or-later
import CGLib

/// Unicode normalization and case folding from GLib: well-kept tables that are in the renderer
/// already (Pango loads GLib), where Foundation's would link ICU. Text GLib refuses (invalid
/// UTF-8, which a Swift string never is) comes back unchanged.
enum GLibUnicode {
    static func normalized(_ text: String, _ mode: GNormalizeMode) -> String {
        owned(text.withCString { g_utf8_normalize($0, -1, mode) }) ?? text
    }

    static func caseFolded(_ text: String) -> String {
        owned(text.withCString { g_utf8_casefold($0, -1) }) ?? text
    }

    /// GLib's newly allocated string as a Swift string, freed.
    private static func owned(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }
}
