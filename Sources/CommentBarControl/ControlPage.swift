// SPDX-License-Identifier: GPL-2.0-or-later

/// The control page's files (Assets/control.html, control.css, control.js), built into the binary
/// by the EmbedAssets plugin (`EmbeddedAssets`): the page needs no network but this server, and its
/// Content-Security-Policy allows nothing else. Its words are set by the script from `GET
/// /api/words` (`PageWords`: the OBS locale files' `Page.*` keys), in the browser's language.
enum ControlPage {
    static let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                        "js": "text/javascript; charset=utf-8"]

    /// The file `name`, with its type.
    static func answer(_ name: String) -> ControlResponse {
        guard let text = EmbeddedAssets.files[name].map({ "\($0)" }),
              let type = name.split(separator: ".").last.flatMap({ types[String($0)] }) else {
            return .error(.notFound, "not found")
        }
        return .text(.ok, text, type: type)
    }
}
