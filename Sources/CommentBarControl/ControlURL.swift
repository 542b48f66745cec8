// SPDX-License-Identifier: GPL-2.0-or-later

/// The address that opens the control page with its token: the page keeps the token as a
/// cookie and drops it from the address (`ControlRoutes`).
public enum ControlURL {
    public static func page(port: Int, token: String) -> String {
        "http://127.0.0.1:\(port)/?token=\(token)"
    }
}
