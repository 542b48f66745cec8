// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport

/// The theme files the settings name, read here and not in Core (which opens no file): within
/// bounds whatever the path names (a huge file, a FIFO, a folder, binary garbage): one open
/// without blocking, one `fstat`, at most `ThemeFile.maxBytes` read (`BoundedFileRead`); then
/// parsed by `ThemeFile` and applied under what the source's own settings changed.
public enum ThemeFiles {
    /// The look the file at `path` holds, or the first thing wrong with it.
    public static func load(_ path: String) -> Result<[String: LookValue], ThemeProblem> {
        func problem(_ message: String) -> Result<[String: LookValue], ThemeProblem> {
            .failure(ThemeProblem(source: path, message: message))
        }
        switch BoundedFileRead.read(path, maxBytes: ThemeFile.maxBytes) {
        case .bytes(let bytes): return ThemeFile.parse(bytes: bytes, source: path)
        case .missing: return problem("no such file")
        case .refused(.folder): return problem("is a folder, not a theme file")
        case .refused(.notRegular): return problem("not a regular file (a FIFO, a socket or a device), not a theme file")
        case .refused(.tooLarge): return problem("too large (a theme file is at most \(ThemeFile.maxBytes / 1024) KiB)")
        case .refused(.unreadable(let why)): return problem("cannot be read (\(why))")
        }
    }

    /// `settings` with the theme file they name (if any) read and applied.
    public static func resolved(_ settings: BarSettings) -> BarSettings {
        guard let path = settings.themeFile else { return settings }
        var settings = settings
        settings.applyTheme(load(path))
        return settings
    }

    /// What `theme` names, a theme file read: its look, or what is wrong with it.
    public static func look(of theme: String) -> Result<[String: LookValue], ThemeProblem> {
        switch Theme.choice(theme) {
        case .look(let look): return .success(look)
        case .problem(let problem): return .failure(problem)
        case .file(let path): return load(path)
        }
    }
}
