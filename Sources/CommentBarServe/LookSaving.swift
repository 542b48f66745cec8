// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport

/// The properties' "Save the look to a file" (issue 38): the `actions` channel's `save_theme`
/// went up with the file in `save_theme_path`; the look of the settings the bar draws with is
/// written there as a theme file (`LookFile.save`), which "Load a theme file" reads back.
extension ServeSession {
    func saveLook(to path: String?) {
        guard let path, !path.isEmpty else {
            log.warning("save the look: no file was named")
            return
        }
        let settings = shared.withLock { $0.settings }
        if let failure = LookFile.save(settings, to: path) {
            log.error("save the look: \(failure)")
        } else {
            log.info("saved the look to \(path)")
        }
    }
}

/// A look written as a theme file (`ThemeFile.text`), whole and safely (`FileReplacement`: a new
/// file of a random name, never a FIFO or another program's file, renamed over it), on disk before
/// the rename: `commentbar theme export --out` and "Save the look". Why not, or nil.
public enum LookFile {
    public static func save(_ settings: BarSettings, to path: String) -> String? {
        FileReplacement.replace(path, with: Array(ThemeFile.text(of: settings).utf8), sync: true)
            .map { "\(path): cannot be written (\($0))" }
    }
}
