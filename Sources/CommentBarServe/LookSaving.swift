// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The properties' "Save the look to a file" (issue 38): the `actions` channel's `save_theme`
/// went up with the file in `save_theme_path`; the look of the settings the bar draws with is
/// written there as a theme file (`ThemeFile.save`), which "Load a theme file" reads back.
extension ServeSession {
    func saveLook(to path: String?) {
        guard let path, !path.isEmpty else {
            log.warning("save the look: no file was named")
            return
        }
        let settings = shared.withLock { $0.settings }
        do {
            try ThemeFile.save(settings, to: path)
            log.info("saved the look to \(path)")
        } catch {
            log.error("save the look: \(error.description)")
        }
    }
}
