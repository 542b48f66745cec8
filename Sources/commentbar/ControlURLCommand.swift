// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarControl
import CommentBarCore
import CommentBarServe
import Glibc

/// `commentbar control-url`: the control page's address with its token (made and stored the
/// first time, as the renderer does), to open in any browser; `--open` opens it in the default one.
struct ControlURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control-url",
        abstract: "Print the control page's address, with its token (the source's Control port; --open opens it).")

    @Option(help: "The source's Control port (control_port).") var port = BarSettings().controlPort
    @Flag(help: "Open the page in the default browser (xdg-open) as well.") var open = false

    func validate() throws {
        guard (1024...65535).contains(port) else { throw ValidationError("--port is 1024 to 65535") }
    }

    func run() async throws {
        let loaded: ControlToken.Loaded
        do {
            loaded = try ControlToken.load()
        } catch {
            throw CLIError(error.description)
        }
        if let note = loaded.note { POSIXIO.writeAll(note + "\n", fd: STDERR_FILENO) }
        let url = ControlURL.page(port: port, token: loaded.token)
        print(url)
        if open, let problem = await BrowserOpener.runProgram(["xdg-open", url]) {
            throw CLIError("cannot open the browser: \(problem)")
        }
    }
}
