// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarCore
import CommentBarServe
import Glibc

/// `commentbar theme`: looks to share (issue 38). A theme file is a JSON object of look settings,
/// the settings table's keys; `export` prints the look of a source's settings as one, `check`
/// says whether one can be used (exit 2 and the file and key at fault when it cannot).
struct ThemeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Export, check and list looks (theme files: JSON objects of look settings).",
        subcommands: [Export.self, Check.self, List.self])

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the look of a source's settings (or of a theme) as a theme file.")

        @Option(help: "A JSON file of source settings, as OBS stores them.") var settings: String?
        @Option(help: ArgumentHelp("A built-in theme or a theme file, instead of the settings' own.",
                                   valueName: "name-or-file"))
        var theme: String?
        @Option(help: "Write the theme file here instead of printing it.") var out: String?

        func run() throws {
            let look = try SettingsFile.load(settings, theme: theme)
            if let problem = look.themeProblem { throw themeFailure("export", problem) }
            if let out {
                if let failure = LookFile.save(look, to: out) { throw themeFailure("export", failure) }
            } else {
                POSIXIO.writeAll(ThemeFile.text(of: look), fd: STDOUT_FILENO)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a theme file (or a built-in theme's name): exit 0 when it can be used, else 2 and why.")

        @Argument(help: "The theme file (or a built-in theme's name).") var theme: String

        func run() throws {
            switch ThemeFiles.look(of: theme) {
            case .success(let values):
                print("\(theme): a theme of \(values.count) look setting\(values.count == 1 ? "" : "s")")
            case .failure(let problem):
                throw themeFailure("check", problem.description)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the built-in themes.")

        func run() {
            for name in Theme.builtinNames { print(name) }
        }
    }
}

/// A theme that cannot be used: one line on stderr, exit status 2.
private func themeFailure(_ command: String, _ message: String) -> ExitCode {
    POSIXIO.writeAll("commentbar theme \(command): \(message)\n", fd: STDERR_FILENO)
    return ExitCode(2)
}
