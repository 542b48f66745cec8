// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The two helper programs (CModules/overlay) and where the renderer finds them: beside
/// itself (the plugin folder of `make install`, or .build/… with COMMENTBAR_OVERLAY_DIR in
/// the tests), or in the package's /usr/libexec/comment-bar/.
public enum OverlayHelperProgram: String, Sendable {
    case x11 = "commentbar-overlay-x11"
    case wayland = "commentbar-overlay-wayland"

    static let packageFolder = "/usr/libexec/comment-bar"

    /// The folders searched, in order.
    static func folders() -> [String] {
        var folders: [String] = []
        if let override = getenv("COMMENTBAR_OVERLAY_DIR").map({ String(cString: $0) }), !override.isEmpty {
            folders.append(override)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = path.lastIndex(of: "/") { folders.append(String(path[..<slash])) }
        }
        folders.append(packageFolder)
        return folders
    }

    /// The first executable found in `folders`, or nil.
    public func path(in folders: [String]) -> String? {
        folders.map { "\($0)/\(rawValue)" }.first { access($0, X_OK) == 0 }
    }

    /// Wayland when the session is a Wayland one and the compositor has not been found to lack
    /// layer shell; X11 (or XWayland) otherwise.
    static func choose(waylandRefused: Bool) -> OverlayHelperProgram {
        let wayland = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
        return !wayland.isEmpty && !waylandRefused ? .wayland : .x11
    }
}
